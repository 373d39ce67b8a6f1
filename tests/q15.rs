//! `murmur q15` writes the firmware model's trajectory in exactly the reference format.

mod common;

use common::murmur;

fn q15(args: &[&str]) -> std::process::Output {
    murmur()
        .arg("q15")
        .args(args)
        .output()
        .expect("murmur runs")
}

#[test]
fn both_reference_runs_come_out_byte_for_byte() {
    for (revision, reference) in [
        (
            "a412",
            include_str!("../plugins/murmur_microboids/tests/data/a412_ticks_0-300.csv"),
        ),
        (
            "bfee0c8",
            include_str!("../plugins/murmur_microboids/tests/data/bfee0c8_ticks_0-300.csv"),
        ),
    ] {
        let out = q15(&["--revision", revision, "--ticks", "300", "--csv", "-"]);
        assert!(out.status.success());
        assert!(
            out.stdout == reference.as_bytes(),
            "{revision} differs from its reference run"
        );
    }
}

#[test]
fn the_article_revision_follows_its_seed_and_writes_files() {
    let path = std::env::temp_dir().join(format!("murmur-q15-{}.csv", std::process::id()));
    let out = q15(&[
        "--revision",
        "article",
        "--seed",
        "0xC0FFEE",
        "--ticks",
        "5",
        "--csv",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let a = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(a.lines().count(), 1 + 6 * 48);
    let b = String::from_utf8(
        q15(&[
            "--revision",
            "article",
            "--seed",
            "12345",
            "--ticks",
            "5",
            "--csv",
            "-",
        ])
        .stdout,
    )
    .unwrap();
    assert_ne!(a, b, "another seed, another murmuration");
    let c = String::from_utf8(q15(&["--birds", "7", "--ticks", "1", "--csv", "-"]).stdout).unwrap();
    assert_eq!(c.lines().count(), 1 + 2 * 7);
}

#[test]
fn bad_flags_are_refused_with_exit_code_2() {
    for args in [
        &["--revision", "b00"][..],
        &["--seed", "0", "--csv", "-"],
        &["--seed", "0x1FFFFFFFF", "--csv", "-"],
        &["--birds", "0", "--csv", "-"],
        &["--ticks", "-1", "--csv", "-"],
        &[],
        &["--csv", "/no/such/dir/out.csv"],
        &["--bench", "-1"],
    ] {
        let out = q15(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).starts_with("error"),
            "{args:?}"
        );
    }
}
