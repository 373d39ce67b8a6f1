//! Any byte stream into the decoder: it never panics, its counters account for every event,
//! and every message it accepts survives a round trip through the encoder.

#![no_main]

use murmur_board_link::{Decoder, Event, Message, encode_flock, encode_hello};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut decoder = Decoder::new();
    let (mut messages, mut unknown, mut rejected) = (0u64, 0u64, 0u64);
    for &byte in data {
        match decoder.push(byte) {
            None => {}
            Some(Event::Rejected) => rejected += 1,
            Some(Event::Message(Message::Unknown(_))) => unknown += 1,
            Some(Event::Message(message)) => {
                messages += 1;
                round_trip(&message);
            }
        }
    }
    let s = decoder.stats();
    assert_eq!(s.frames, messages);
    assert_eq!(s.unknown_kind, unknown);
    assert_eq!(s.crc_errors + s.framing_errors, rejected);
    assert!(s.skipped_bytes <= data.len() as u64);
});

/// Encodes `message` again and decodes it with a fresh decoder: the same message comes back.
fn round_trip(message: &Message) {
    let mut frame = [0u8; murmur_board_link::MAX_FRAME + 1];
    let n = match message {
        Message::Hello(h) => encode_hello(h, &mut frame),
        Message::Flock(f) => encode_flock(f.tick, f.birds(), &mut frame),
        Message::Unknown(_) => return,
    }
    .expect("an accepted message fits a frame");
    let mut decoder = Decoder::new();
    assert_eq!(decoder.push(0), None);
    let mut back = None;
    for &byte in &frame[..n] {
        if let Some(event) = decoder.push(byte) {
            back = Some(event);
        }
    }
    assert_eq!(back, Some(Event::Message(*message)));
}
