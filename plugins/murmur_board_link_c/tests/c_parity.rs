//! A C program compiled with gcc against `include/board_link.h` and `libmurmur_board_link_c.a` emits
//! frames byte-identical to the Rust encoder's.

use murmur_board_link::MAX_FRAME;
use murmur_board_link::message::{BirdRecord, Hello, encode_flock, encode_hello};
use std::process::Command;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn rust_frames() -> Vec<String> {
    let mut out = [0u8; MAX_FRAME];
    let mut lines = Vec::new();
    let n = encode_hello(
        &Hello::new(0, 0x1312_1312, 48, 31872, "microboids"),
        &mut out,
    )
    .unwrap();
    lines.push(hex(&out[..n]));
    let two = [
        BirdRecord {
            x: 32639,
            y: 19170,
            angle: 139,
            state: 0,
        },
        BirdRecord {
            x: -24340,
            y: -12203,
            angle: 126,
            state: 0,
        },
    ];
    let n = encode_flock(0, &two, &mut out).unwrap();
    lines.push(hex(&out[..n]));
    let n = encode_flock(7, &[BirdRecord::default()], &mut out).unwrap();
    lines.push(hex(&out[..n]));
    let many: Vec<BirdRecord> = (0..48)
        .map(|i: i32| BirdRecord {
            x: (i * 1301 - 30000) as i16,
            y: (29000 - i * 977) as i16,
            angle: (i * 37) as u8,
            state: (i % 5) as u8,
        })
        .collect();
    let n = encode_flock(123_456, &many, &mut out).unwrap();
    lines.push(hex(&out[..n]));
    lines.push("0 0".into());
    lines
}

#[test]
fn c_and_rust_write_the_same_frames() {
    // The C sources travel inside the test binary: a path baked in at compile time would go
    // stale when the same target directory serves a checkout somewhere else.
    let here = std::env::temp_dir().join(format!("board-link-c-{}", std::process::id()));
    std::fs::create_dir_all(here.join("include")).unwrap();
    std::fs::create_dir_all(here.join("c")).unwrap();
    std::fs::write(
        here.join("include/board_link.h"),
        include_str!("../include/board_link.h"),
    )
    .unwrap();
    std::fs::write(here.join("c/emit.c"), include_str!("../c/emit.c")).unwrap();
    // Cargo builds the static library (as libmurmur_board_link_c-HASH.a) in the test binary's `deps`
    // directory before it builds this test; take the newest.
    let deps = std::env::current_exe()
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    let lib = std::fs::read_dir(&deps)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("libmurmur_board_link_c-") && name.ends_with(".a")
        })
        .max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok())
        .expect("libmurmur_board_link_c was built");
    let bin = std::env::temp_dir().join(format!("board-link-emit-{}", std::process::id()));
    let status = Command::new("gcc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(here.join("include"))
        .arg(here.join("c/emit.c"))
        .arg(&lib)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&bin)
        .status()
        .expect("gcc runs");
    assert!(status.success(), "gcc failed");
    let out = Command::new(&bin).output().expect("the C program runs");
    let _ = std::fs::remove_file(&bin);
    let _ = std::fs::remove_dir_all(&here);
    assert!(out.status.success());
    let c: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(c, rust_frames());
}

#[test]
fn the_header_agrees_with_the_library() {
    let header = include_str!("../include/board_link.h");
    assert!(header.contains(&format!(
        "#define BL_MAX_FRAME {}u",
        murmur_board_link_c::BL_MAX_FRAME
    )));
    assert!(header.contains(&format!(
        "#define BL_MAX_BIRDS {}u",
        murmur_board_link::message::MAX_BIRDS
    )));
    assert_eq!(std::mem::size_of::<murmur_board_link_c::BlBird>(), 6);
}
