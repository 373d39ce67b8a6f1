//! An animated GIF written a frame at a time. After each frame the file's end (the trailer) is
//! written and the write position stepped back over it: a recording stopped by a crash or a
//! kill between frames is a whole, readable file of the frames so far. The palette is fitted to
//! the first frame, so the file's header is written with it.

use super::palette::Palette;
use super::scale::downscale;
use std::io::{self, Seek, SeekFrom, Write};

/// The GIF trailer byte.
const TRAILER: u8 = 0x3B;

/// A writer that can put the file's end after what was written so far.
struct Sealing<W: Write + Seek> {
    inner: io::BufWriter<W>,
}

impl<W: Write + Seek> Write for Sealing<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Write + Seek> Sealing<W> {
    /// Writes the trailer, hands everything to the file, and steps back so that the next frame
    /// overwrites the trailer.
    fn seal(&mut self) -> io::Result<()> {
        self.inner.write_all(&[TRAILER])?;
        self.inner.flush()?;
        self.inner.seek(SeekFrom::Current(-1))?;
        Ok(())
    }
}

/// A recording in progress.
pub struct GifRecording<W: Write + Seek> {
    /// The sink until the first frame comes (its colours make the palette)...
    sink: Option<W>,
    /// ...then the encoder, the header written, and that palette.
    started: Option<Started<W>>,
    width: u32,
    height: u32,
    frames: u32,
    /// Centiseconds written as delays so far, and when the first frame was captured (seconds),
    /// so that delays follow the capture times without drifting.
    written_cs: u64,
    first_at: Option<f64>,
    pending: Option<Vec<u8>>,
    /// The last frame written, to leave out what did not change.
    shown: Vec<u8>,
}

/// A recording's encoder once its header is written, and the palette the header holds.
struct Started<W: Write + Seek> {
    encoder: gif::Encoder<Sealing<W>>,
    palette: Palette,
}

fn gif_error(e: gif::EncodingError) -> io::Error {
    match e {
        gif::EncodingError::Io(e) => e,
        other => io::Error::other(other.to_string()),
    }
}

impl<W: Write + Seek> GifRecording<W> {
    /// Starts a looping recording of `width` x `height` frames into `sink`; nothing is written
    /// until the first frame.
    pub fn new(sink: W, width: u32, height: u32) -> io::Result<Self> {
        to_u16(width)?;
        to_u16(height)?;
        Ok(Self {
            sink: Some(sink),
            started: None,
            width,
            height,
            frames: 0,
            written_cs: 0,
            first_at: None,
            pending: None,
            shown: Vec::new(),
        })
    }

    /// Frames written so far (a frame is written when the next one comes, or at the end).
    pub fn frames(&self) -> u32 {
        self.frames
    }

    /// Writes the file's header with `palette` (the colours of every frame after).
    fn start(&mut self, palette: Palette) -> io::Result<&mut Started<W>> {
        let sink = self
            .sink
            .take()
            .ok_or_else(|| io::Error::other("already started"))?;
        let (w, h) = (to_u16(self.width)?, to_u16(self.height)?);
        let mut encoder = gif::Encoder::new(
            Sealing {
                inner: io::BufWriter::new(sink),
            },
            w,
            h,
            palette.rgb(),
        )
        .map_err(gif_error)?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(gif_error)?;
        encoder.get_mut().seal()?;
        Ok(self.started.insert(Started { encoder, palette }))
    }

    /// The frames' size.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Adds a frame captured at `at` seconds: `rgba` of `width` x `height`, scaled down to the
    /// recording's width when wider. A frame of another shape is an error.
    pub fn push(&mut self, rgba: &[u8], width: u32, height: u32, at: f64) -> io::Result<()> {
        let (rgb, w, h) = downscale(rgba, width, height, self.width);
        if (w, h) != (self.width, self.height) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "a {width}x{height} frame does not fit a {}x{} recording",
                    self.width, self.height
                ),
            ));
        }
        let palette = match self.started {
            Some(ref started) => &started.palette,
            None => &self.start(Palette::fitted(&rgb))?.palette,
        };
        let indices: Vec<u8> = rgb
            .chunks_exact(3)
            .map(|p| palette.index([p[0], p[1], p[2]]))
            .collect();
        // The previous frame lasts until this one was captured.
        if let Some(previous) = self.pending.replace(indices) {
            let delay = self.delay_until(at);
            self.write(previous, delay)?;
        }
        self.first_at.get_or_insert(at);
        Ok(())
    }

    /// The delay (centiseconds) that takes the written delays up to `at` seconds after the
    /// first frame.
    fn delay_until(&mut self, at: f64) -> u16 {
        let first = self.first_at.unwrap_or(at);
        let total = ((at - first) * 100.0).round().max(0.0) as u64;
        // At least 2 cs: browsers slow frames shorter than that down to 10 cs.
        let delay = total
            .saturating_sub(self.written_cs)
            .clamp(2, u16::MAX as u64);
        self.written_cs += delay;
        delay as u16
    }

    /// Writes a frame: pixels as in the frame before are left transparent (the frame before
    /// stays under them), which a flat sky and a slow flock turn into long runs.
    fn write(&mut self, indices: Vec<u8>, delay: u16) -> io::Result<()> {
        let mut frame = if self.shown.len() == indices.len() {
            let changes: Vec<u8> = indices
                .iter()
                .zip(&self.shown)
                .map(|(&now, &before)| {
                    if now == before {
                        Palette::TRANSPARENT
                    } else {
                        now
                    }
                })
                .collect();
            gif::Frame::from_indexed_pixels(
                self.width as u16,
                self.height as u16,
                changes,
                Some(Palette::TRANSPARENT),
            )
        } else {
            gif::Frame::from_indexed_pixels(
                self.width as u16,
                self.height as u16,
                indices.clone(),
                None,
            )
        };
        self.shown = indices;
        frame.dispose = gif::DisposalMethod::Keep;
        frame.delay = delay;
        let encoder = &mut self
            .started
            .as_mut()
            .ok_or_else(|| io::Error::other("not started"))?
            .encoder;
        encoder.write_frame(&frame).map_err(gif_error)?;
        encoder.get_mut().seal()?;
        self.frames += 1;
        Ok(())
    }

    /// Writes the last frame (lasting `last_delay` seconds) and the file's end; returns the sink.
    pub fn finish(mut self, last_delay: f64) -> io::Result<W> {
        // No frame came: an empty animation, in the even palette.
        if self.started.is_none() {
            self.start(Palette::new())?;
        }
        if let Some(last) = self.pending.take() {
            let delay = ((last_delay * 100.0).round() as u64).clamp(2, u16::MAX as u64) as u16;
            self.write(last, delay)?;
        }
        let started = self
            .started
            .take()
            .ok_or_else(|| io::Error::other("not started"))?;
        let sealing = started.encoder.into_inner().map_err(gif_error)?;
        sealing.inner.into_inner().map_err(|e| e.into_error())
    }
}

fn to_u16(v: u32) -> io::Result<u16> {
    u16::try_from(v)
        .ok()
        .filter(|&v| v > 0)
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, format!("{v} pixels")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn frame(w: u32, h: u32, colour: [u8; 3]) -> Vec<u8> {
        (0..w * h)
            .flat_map(|_| [colour[0], colour[1], colour[2], 255])
            .collect()
    }

    #[test]
    fn every_stage_is_a_whole_file_and_delays_follow_the_clock() {
        let mut rec = GifRecording::new(Cursor::new(Vec::new()), 4, 2).unwrap();
        let sealed = |rec: &mut GifRecording<Cursor<Vec<u8>>>| {
            let c = rec
                .started
                .as_ref()
                .unwrap()
                .encoder
                .get_ref()
                .inner
                .get_ref();
            let pos = c.position() as usize;
            c.get_ref()[..=pos].to_vec()
        };
        assert!(
            rec.started.is_none(),
            "nothing written before the first frame"
        );
        // 8x4 frames scaled to 4x2; delays of 1/30 s round to 3, 3, 4 centiseconds.
        for (k, c) in [[112, 231, 255], [220, 20, 60], [255, 196, 0], [0, 0, 0]]
            .into_iter()
            .enumerate()
        {
            rec.push(&frame(8, 4, c), 8, 4, k as f64 / 30.0).unwrap();
            assert_eq!(*sealed(&mut rec).last().unwrap(), TRAILER);
        }
        assert_eq!(rec.frames(), 3);
        assert!(
            rec.push(&frame(8, 8, [0; 3]), 8, 8, 1.0).is_err(),
            "another shape"
        );
        let bytes = rec.finish(0.1).unwrap().into_inner();
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let mut d = options.read_info(Cursor::new(bytes)).unwrap();
        let mut seen = Vec::new();
        while let Some(f) = d.read_next_frame().unwrap() {
            seen.push((f.delay, [f.buffer[0], f.buffer[1], f.buffer[2]]));
        }
        assert_eq!(
            seen,
            vec![
                (3, [112, 231, 255]),
                (4, [220, 20, 60]),
                (3, [255, 196, 0]),
                (10, [0, 0, 0])
            ]
        );
    }
}
