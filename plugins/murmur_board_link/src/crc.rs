//! CRC-32/MPEG-2: polynomial 0x04C11DB7, initial 0xFFFFFFFF, no reflection, no final XOR (what
//! the STM32 CRC unit computes in its reset configuration when fed bytes).

const fn table() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = (i as u32) << 24;
        let mut bit = 0;
        while bit < 8 {
            c = if c & 0x8000_0000 != 0 {
                (c << 1) ^ 0x04C1_1DB7
            } else {
                c << 1
            };
            bit += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
}

static TABLE: [u32; 256] = table();

/// CRC-32/MPEG-2 of `bytes`.
pub fn crc32_mpeg2(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0xFFFF_FFFF, |crc, &b| {
        (crc << 8) ^ TABLE[((crc >> 24) as u8 ^ b) as usize]
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn check_value() {
        assert_eq!(super::crc32_mpeg2(b"123456789"), 0x0376_E6E7);
        assert_eq!(super::crc32_mpeg2(b""), 0xFFFF_FFFF);
    }
}
