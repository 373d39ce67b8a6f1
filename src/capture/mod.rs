//! Pictures and recordings of the window, Bevy-free: animated GIFs written frame by frame (each
//! frame followed by the file's end, so a recording cut short is still a whole file) in a palette
//! fitted to the first frame that keeps the app's own colours exact, and where and under which
//! names they go.

mod gif_file;
mod names;
mod palette;
mod scale;

pub use gif_file::GifRecording;
pub use names::{pictures_dir, timestamped};
pub use palette::Palette;
pub use scale::downscale;

/// Recordings are at most this wide (a window is scaled down to it): shareable sizes.
pub const RECORDING_WIDTH: u32 = 640;
/// Frames a second of a recording made in the app.
pub const RECORDING_FPS: f32 = 30.0;

/// The size of a recording of `width` x `height` frames at most `max_width` wide (the shape
/// kept, at least a pixel each way).
pub fn recording_size(width: u32, height: u32, max_width: u32) -> (u32, u32) {
    let w = width.min(max_width).max(1);
    let h = (height as u64 * w as u64 + width as u64 / 2) / width.max(1) as u64;
    (w, (h as u32).max(1))
}
