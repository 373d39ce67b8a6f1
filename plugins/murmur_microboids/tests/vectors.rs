//! Every line of the reference vectors (computed by the firmware's C functions) reproduced.

use murmur_microboids::q15::{avg, int16_to_u8, mul, q};
use murmur_microboids::rng::XorShift32;
use murmur_microboids::trig::{Point, atan2, sam, translate16, which_quadrant};

const VECTORS: &str = include_str!("data/vectors.txt");

/// The integers in `s`, in order (a leading `-` belongs to the number).
fn numbers(s: &str) -> Vec<i64> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let flush = |cur: &mut String, out: &mut Vec<i64>| {
        if !cur.is_empty() && cur != "-" {
            let v = if let Some(hex) = cur.strip_prefix("0x") {
                i64::from_str_radix(hex, 16).unwrap()
            } else {
                cur.parse().unwrap()
            };
            out.push(v);
        }
        cur.clear();
    };
    let bytes: Vec<char> = s.chars().collect();
    for (i, &c) in bytes.iter().enumerate() {
        let hex_digit = cur.starts_with("0x") && c.is_ascii_hexdigit();
        let minus =
            c == '-' && cur.is_empty() && bytes.get(i + 1).is_some_and(|d| d.is_ascii_digit());
        if c.is_ascii_digit() || hex_digit || (c == 'x' && cur == "0") || minus {
            cur.push(c);
        } else {
            flush(&mut cur, &mut out);
        }
    }
    flush(&mut cur, &mut out);
    out
}

#[test]
fn every_vector_line_is_reproduced() {
    let mut rng = XorShift32::default();
    let mut checked = 0;
    for line in VECTORS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (name, _) = line
            .split_once('(')
            .or_else(|| line.split_once('['))
            .unwrap();
        let n = numbers(line.split_once(name).unwrap().1);
        let p = |i: usize| Point::new(n[i] as i16, n[i + 1] as i16);
        match name {
            "xs" => assert_eq!(rng.step() as i64, n[1], "{line}"),
            "Mul" => assert_eq!(
                mul(q(n[0] as i16), q(n[1] as i16)).to_bits() as i64,
                n[2],
                "{line}"
            ),
            "Avg" => assert_eq!(
                avg(q(n[0] as i16), q(n[1] as i16), q(0x3FFF)).to_bits() as i64,
                n[2],
                "{line}"
            ),
            "I2U" => {
                assert_eq!(int16_to_u8(q(n[0] as i16), 1) as i64, n[2], "{line}"); // n[1] is the 1 of "s1"
                assert_eq!(int16_to_u8(q(n[0] as i16), 2) as i64, n[4], "{line}");
            }
            "ATan2" => {
                assert_eq!(atan2(p(0), p(2)) as i64, n[4], "{line}");
                assert_eq!(which_quadrant(p(0), p(2)) as i64, n[5], "{line}");
            }
            "SAM" => assert_eq!(sam(n[0] as u8, n[1] as u8) as i64, n[2], "{line}"),
            "Tr" => {
                let mut pt = p(0);
                translate16(&mut pt, n[2] as u8, q(n[3] as i16));
                assert_eq!(
                    (pt.x.to_bits() as i64, pt.y.to_bits() as i64),
                    (n[4], n[5]),
                    "{line}"
                );
            }
            other => panic!("unknown vector kind {other}: {line}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 84, "every line of vectors.txt");
}
