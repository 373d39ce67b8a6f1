//! Intel HEX, the format the micro:bit's MICROBIT drive flashes: 16-byte data records, an
//! extended linear address record where the upper 16 bits of the address change, an end record.

use super::image::Segment;
use std::fmt::Write;

fn record(out: &mut String, kind: u8, address: u16, data: &[u8]) {
    let mut sum = data.len() as u8;
    sum = sum
        .wrapping_add((address >> 8) as u8)
        .wrapping_add(address as u8);
    sum = sum.wrapping_add(kind);
    let _ = write!(out, ":{:02X}{address:04X}{kind:02X}", data.len());
    for &b in data {
        let _ = write!(out, "{b:02X}");
        sum = sum.wrapping_add(b);
    }
    let _ = writeln!(out, "{:02X}", sum.wrapping_neg());
}

/// The segments as Intel HEX text.
pub fn write(segments: &[Segment]) -> String {
    let mut out = String::new();
    let mut upper = None;
    for segment in segments {
        for (i, chunk) in segment.data.chunks(16).enumerate() {
            let address = segment.address + 16 * i as u32;
            if upper != Some(address >> 16) {
                upper = Some(address >> 16);
                record(&mut out, 4, 0, &((address >> 16) as u16).to_be_bytes());
            }
            record(&mut out, 0, address as u16, chunk);
        }
    }
    record(&mut out, 1, 0, &[]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads HEX back, independently of the writer: (address, byte) for every data byte, with
    /// every record's checksum checked.
    fn read(text: &str) -> Vec<(u32, u8)> {
        let mut upper = 0u32;
        let mut out = Vec::new();
        for line in text.lines() {
            let bytes: Vec<u8> = (1..line.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&line[i..i + 2], 16).unwrap())
                .collect();
            assert_eq!(
                bytes.iter().fold(0u8, |a, b| a.wrapping_add(*b)),
                0,
                "{line}"
            );
            let (n, address, kind) = (
                bytes[0] as usize,
                u16::from_be_bytes([bytes[1], bytes[2]]),
                bytes[3],
            );
            let data = &bytes[4..4 + n];
            match kind {
                0 => out.extend(
                    data.iter()
                        .enumerate()
                        .map(|(i, b)| (upper + address as u32 + i as u32, *b)),
                ),
                4 => upper = (u16::from_be_bytes([data[0], data[1]]) as u32) << 16,
                1 => break,
                _ => panic!("record kind {kind}"),
            }
        }
        out
    }

    #[test]
    fn every_byte_lands_at_its_address_across_a_64k_boundary() {
        let segments = [
            Segment {
                address: 0xFFF8,
                data: (0..40).collect(),
                mem_size: 40,
                run_address: 0xFFF8,
            },
            Segment {
                address: 0x3_0000,
                data: vec![0xAB; 3],
                mem_size: 3,
                run_address: 0x2000_0000,
            },
        ];
        let text = write(&segments);
        let expected: Vec<(u32, u8)> = (0..40u32)
            .map(|i| (0xFFF8 + i, i as u8))
            .chain((0..3).map(|i| (0x3_0000 + i, 0xAB)))
            .collect();
        assert_eq!(read(&text), expected);
        assert!(text.ends_with(":00000001FF\n"));
        // The example record of the format's own description.
        let mut line = String::new();
        record(&mut line, 0, 0x0030, &[0x02, 0x33, 0x7A]);
        assert_eq!(line, ":0300300002337A1E\n");
    }
}
