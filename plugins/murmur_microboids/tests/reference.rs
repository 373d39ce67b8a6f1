//! Ticks 0..=300 of both reference trajectories (dumped from the firmware's own C code)
//! reproduced exactly, line for line.

use murmur_microboids::{CSV_HEADER, CsvRow, Flock, Revision};
use std::fmt::Write;

fn trajectory(revision: Revision, ticks: u32) -> String {
    let mut flock: Flock = Flock::new(revision, 48, 0x1234_5678).unwrap();
    let mut out = String::from(CSV_HEADER);
    out.push('\n');
    for tick in 0..=ticks {
        if tick > 0 {
            flock.tick(None);
        }
        for (index, bird) in flock.birds().iter().enumerate() {
            writeln!(out, "{}", CsvRow { tick, index, bird }).unwrap();
        }
    }
    out
}

fn compare(revision: Revision, reference: &str) {
    let ours = trajectory(revision, 300);
    for (n, (a, b)) in ours.lines().zip(reference.lines()).enumerate() {
        assert_eq!(
            a,
            b,
            "{}: first difference at line {}",
            revision.name(),
            n + 1
        );
    }
    assert_eq!(ours.lines().count(), reference.lines().count());
    assert_eq!(ours.lines().count(), 1 + 301 * 48);
}

#[test]
fn a412_matches_its_reference_run() {
    compare(Revision::A412, include_str!("data/a412_ticks_0-300.csv"));
}

#[test]
fn bfee0c8_matches_its_reference_run() {
    compare(
        Revision::Bfee0c8,
        include_str!("data/bfee0c8_ticks_0-300.csv"),
    );
}

#[test]
fn a412_ignores_the_seed() {
    assert_eq!(trajectory(Revision::A412, 20), {
        let mut f: Flock = Flock::new(Revision::A412, 48, 99).unwrap();
        let mut s = String::from(CSV_HEADER);
        s.push('\n');
        for tick in 0..=20 {
            if tick > 0 {
                f.tick(None);
            }
            for (index, bird) in f.birds().iter().enumerate() {
                writeln!(s, "{}", CsvRow { tick, index, bird }).unwrap();
            }
        }
        s
    });
}
