//! A GIF decoder of the tests' own (not the `gif` crate murmur writes with): blocks, LZW,
//! transparency and disposal, frames composited as a viewer shows them. A file must end with
//! the trailer: a cut-off file is an error.

/// A frame as shown: RGB pixels and how long it stays (centiseconds).
pub struct Shown {
    pub rgb: Vec<[u8; 3]>,
    pub delay: u16,
}

/// A decoded animation.
pub struct Animation {
    pub width: usize,
    pub height: usize,
    pub frames: Vec<Shown>,
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, String> {
        let b = *self.bytes.get(self.at).ok_or("the file ends early")?;
        self.at += 1;
        Ok(b)
    }
    fn u16(&mut self) -> Result<u16, String> {
        Ok(self.byte()? as u16 | (self.byte()? as u16) << 8)
    }
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let s = self
            .bytes
            .get(self.at..self.at + n)
            .ok_or("the file ends early")?;
        self.at += n;
        Ok(s)
    }
    /// Data sub-blocks up to the empty one.
    fn sub_blocks(&mut self) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        loop {
            let n = self.byte()? as usize;
            if n == 0 {
                return Ok(out);
            }
            out.extend_from_slice(self.take(n)?);
        }
    }
    fn colours(&mut self, n: usize) -> Result<Vec<[u8; 3]>, String> {
        Ok(self
            .take(3 * n)?
            .chunks(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect())
    }
}

/// Decodes a whole GIF file.
pub fn decode(bytes: &[u8]) -> Result<Animation, String> {
    let mut r = Reader { bytes, at: 0 };
    let magic = r.take(6)?;
    if magic != b"GIF89a" && magic != b"GIF87a" {
        return Err("not a GIF".into());
    }
    let (width, height) = (r.u16()? as usize, r.u16()? as usize);
    let flags = r.byte()?;
    let background = r.byte()?;
    let _aspect = r.byte()?;
    let global = if flags & 0x80 != 0 {
        r.colours(1 << ((flags & 7) + 1))?
    } else {
        Vec::new()
    };
    let bg = global.get(background as usize).copied().unwrap_or([0; 3]);
    let mut canvas = vec![bg; width * height];
    let mut frames = Vec::new();
    let (mut transparent, mut delay, mut dispose) = (None, 0u16, 0u8);
    loop {
        match r.byte()? {
            0x3B => {
                return Ok(Animation {
                    width,
                    height,
                    frames,
                });
            }
            0x21 => {
                let label = r.byte()?;
                let data = r.sub_blocks()?;
                if label == 0xF9 && data.len() >= 4 {
                    dispose = (data[0] >> 2) & 7;
                    delay = data[1] as u16 | (data[2] as u16) << 8;
                    transparent = (data[0] & 1 != 0).then_some(data[3]);
                }
            }
            0x2C => {
                let (left, top) = (r.u16()? as usize, r.u16()? as usize);
                let (w, h) = (r.u16()? as usize, r.u16()? as usize);
                let f = r.byte()?;
                let local = if f & 0x80 != 0 {
                    Some(r.colours(1 << ((f & 7) + 1))?)
                } else {
                    None
                };
                let interlaced = f & 0x40 != 0;
                let min_code = r.byte()?;
                let data = r.sub_blocks()?;
                let indices = lzw(&data, min_code, w * h)?;
                let table = local.as_ref().unwrap_or(&global);
                let before = canvas.clone();
                for (i, &index) in indices.iter().enumerate() {
                    if Some(index) == transparent {
                        continue;
                    }
                    let (x, mut y) = (i % w, i / w);
                    if interlaced {
                        y = deinterlace(y, h);
                    }
                    let (cx, cy) = (left + x, top + y);
                    if cx < width && cy < height {
                        canvas[cy * width + cx] = *table
                            .get(index as usize)
                            .ok_or("an index outside the palette")?;
                    }
                }
                frames.push(Shown {
                    rgb: canvas.clone(),
                    delay,
                });
                match dispose {
                    2 => {
                        for y in top..(top + h).min(height) {
                            for x in left..(left + w).min(width) {
                                canvas[y * width + x] = bg;
                            }
                        }
                    }
                    3 => canvas = before,
                    _ => {}
                }
                (transparent, delay, dispose) = (None, 0, 0);
            }
            other => {
                return Err(format!(
                    "an unknown block 0x{other:02x} at byte {}",
                    r.at - 1
                ));
            }
        }
    }
}

fn deinterlace(row: usize, h: usize) -> usize {
    let passes = [(0, 8), (4, 8), (2, 4), (1, 2)];
    let mut k = row;
    for (start, step) in passes {
        let rows = if h > start {
            (h - start).div_ceil(step)
        } else {
            0
        };
        if k < rows {
            return start + k * step;
        }
        k -= rows;
    }
    row
}

/// GIF's LZW: variable-width codes, least significant bit first.
fn lzw(data: &[u8], min_code: u8, expect: usize) -> Result<Vec<u8>, String> {
    if !(2..=8).contains(&min_code) {
        return Err(format!("a code size of {min_code}"));
    }
    let clear = 1usize << min_code;
    let end = clear + 1;
    let mut prefix: Vec<usize> = vec![0; 4096];
    let mut suffix: Vec<u8> = vec![0; 4096];
    let mut first: Vec<u8> = vec![0; 4096];
    for i in 0..clear {
        suffix[i] = i as u8;
        first[i] = i as u8;
    }
    let (mut size, mut next, mut previous): (u32, usize, Option<usize>) =
        (min_code as u32 + 1, end + 1, None);
    let (mut bits, mut have) = (0u32, 0u32);
    let mut out = Vec::with_capacity(expect);
    let mut bytes = data.iter();
    let mut stack = Vec::new();
    loop {
        while have < size {
            match bytes.next() {
                Some(&b) => {
                    bits |= (b as u32) << have;
                    have += 8;
                }
                None => return Err("the image data ends without its end code".into()),
            }
        }
        let code = (bits & ((1 << size) - 1)) as usize;
        bits >>= size;
        have -= size;
        if code == clear {
            size = min_code as u32 + 1;
            next = end + 1;
            previous = None;
            continue;
        }
        if code == end {
            break;
        }
        let Some(prev) = previous else {
            if code >= clear {
                return Err("a first code that is not a colour".into());
            }
            out.push(code as u8);
            previous = Some(code);
            continue;
        };
        let known = code < next;
        if !known && code != next {
            return Err(format!("code {code} beyond the table ({next})"));
        }
        let head = if known { first[code] } else { first[prev] };
        if next < 4096 {
            prefix[next] = prev;
            suffix[next] = head;
            first[next] = first[prev];
            next += 1;
            if next == 1 << size && size < 12 {
                size += 1;
            }
        }
        // Emit the string for `code` (now in the table either way).
        let mut c = code;
        stack.clear();
        while c >= clear {
            stack.push(suffix[c]);
            c = prefix[c];
        }
        stack.push(c as u8);
        out.extend(stack.iter().rev());
        previous = Some(code);
    }
    if out.len() < expect {
        return Err(format!("{} pixels of {expect}", out.len()));
    }
    out.truncate(expect);
    Ok(out)
}
