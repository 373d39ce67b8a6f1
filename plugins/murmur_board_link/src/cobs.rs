//! Consistent Overhead Byte Stuffing (Cheshire and Baker, 1999), blocks of at most 254 data
//! bytes: a code byte 0xFF means 254 data bytes and no implied zero.

/// Longest COBS encoding of `n` bytes (no delimiter).
pub const fn max_encoded_len(n: usize) -> usize {
    n + n / 254 + 1
}

/// Encodes `src` into `dst` (no delimiter); returns the length, or `None` if `dst` is too short.
pub fn encode(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    let mut code_at = 0;
    let mut out = 1;
    let mut code: u8 = 1;
    for &b in src {
        if b == 0 {
            *dst.get_mut(code_at)? = code;
            code_at = out;
            out += 1;
            code = 1;
        } else {
            *dst.get_mut(out)? = b;
            out += 1;
            code += 1;
            if code == 0xFF {
                *dst.get_mut(code_at)? = code;
                code_at = out;
                out += 1;
                code = 1;
            }
        }
    }
    *dst.get_mut(code_at)? = code;
    Some(out)
}

/// Decodes one COBS block sequence (no delimiter) in place; returns the decoded length, or
/// `None` when the encoding is malformed (a zero byte, or a code running past the end).
pub fn decode_in_place(buf: &mut [u8]) -> Option<usize> {
    let (mut read, mut write) = (0, 0);
    while read < buf.len() {
        let code = buf[read];
        if code == 0 {
            return None;
        }
        read += 1;
        let end = read + code as usize - 1;
        if end > buf.len() {
            return None;
        }
        while read < end {
            let b = buf[read];
            if b == 0 {
                return None;
            }
            buf[write] = b;
            write += 1;
            read += 1;
        }
        if code != 0xFF && read < buf.len() {
            buf[write] = 0;
            write += 1;
        }
    }
    Some(write)
}
