//! The protocol document's worked examples byte for byte, round trips (property tests), and a
//! decoder that survives anything.

use murmur_board_link::message::{EncodeError, frame};
use murmur_board_link::*;
use proptest::prelude::*;

fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect()
}

fn encode<F: FnOnce(&mut [u8]) -> Result<usize, EncodeError>>(f: F) -> Vec<u8> {
    let mut out = [0u8; MAX_FRAME];
    let n = f(&mut out).unwrap();
    out[..n].to_vec()
}

fn decode_all(bytes: &[u8]) -> (Vec<Message>, Stats) {
    let mut d = Decoder::new();
    // A fresh decoder waits for a delimiter first, as if it joined mid-stream.
    d.push(0);
    let out = bytes
        .iter()
        .filter_map(|&b| d.push(b))
        .filter_map(|e| match e {
            Event::Message(m) => Some(m),
            Event::Rejected => None,
        });
    let out = out.collect();
    (out, d.stats())
}

#[test]
fn the_worked_examples_come_out_byte_for_byte() {
    let hello = Hello::new(0, 0x1312_1312, 48, 31872, "microboids");
    assert_eq!(
        encode(|o| encode_hello(&hello, o)),
        hex("03 01 01 08 12 13 12 13 30 80 7c 01 0f 6d 69 63 72 6f 62 6f 69 64 73 89 62 56 30 00")
    );
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
    assert_eq!(
        encode(|o| encode_flock(0, &two, o)),
        hex("02 02 01 01 01 07 02 7f 7f e2 4a 8b 06 ec a0 55 d0 7e 05 b2 1c 9a f4 00")
    );
    let one = [BirdRecord::default()];
    assert_eq!(
        encode(|o| encode_flock(7, &one, o)),
        hex("03 02 07 01 01 02 01 01 01 01 01 01 05 d8 56 e3 ac 00")
    );
}

#[test]
fn the_worked_examples_decode() {
    let bytes = hex(
        "03 01 01 08 12 13 12 13 30 80 7c 01 0f 6d 69 63 72 6f 62 6f 69 64 73 89 62 56 30 00 02 02 01 01 01 07 02 7f 7f e2 4a 8b 06 ec a0 55 d0 7e 05 b2 1c 9a f4 00",
    );
    let (msgs, stats) = decode_all(&bytes);
    assert_eq!(stats.frames, 2);
    let Message::Hello(h) = msgs[0] else { panic!() };
    assert_eq!(
        (h.revision, h.seed, h.birds, h.tick_us, h.name()),
        (0, 0x1312_1312, 48, 31872, "microboids")
    );
    let Message::Flock(f) = msgs[1] else { panic!() };
    assert_eq!(f.tick, 0);
    assert_eq!(
        f.birds()[1],
        BirdRecord {
            x: -24340,
            y: -12203,
            angle: 126,
            state: 0
        }
    );
}

#[test]
fn a_listener_joining_mid_stream_skips_to_the_first_delimiter() {
    let frame = encode(|o| encode_flock(3, &[BirdRecord::default()], o));
    let mut d = Decoder::new();
    let mut got = Vec::new();
    for &b in frame[4..].iter().chain(&frame).chain(&frame) {
        if let Some(Event::Message(m)) = d.push(b) {
            got.push(m);
        }
    }
    assert_eq!(got.len(), 2, "the partial first frame is skipped silently");
    assert_eq!(d.stats().skipped_bytes as usize, frame.len() - 5);
}

#[test]
fn a_whole_first_frame_without_a_delimiter_before_it_is_accepted() {
    // A receiver that opened the port before the board's leading 0x00 (or a board that sends
    // none) must not lose the first HELLO.
    let hello = encode(|o| encode_hello(&Hello::new(1, 7, 48, 31872, "b"), o));
    let flock = encode(|o| encode_flock(0, &[BirdRecord::default()], o));
    let mut d = Decoder::new();
    let got: Vec<Message> = hello
        .iter()
        .chain(&flock)
        .filter_map(|&b| match d.push(b) {
            Some(Event::Message(m)) => Some(m),
            _ => None,
        })
        .collect();
    assert!(matches!(
        got.as_slice(),
        [Message::Hello(_), Message::Flock(_)]
    ));
    assert_eq!(d.stats().skipped_bytes, 0);
    // Negative control: one flipped bit in that first segment and it is skipped, not counted as
    // a CRC error (it could as well be the tail of a frame joined midway).
    let mut bad = hello.clone();
    bad[5] ^= 0x10;
    let mut d = Decoder::new();
    let events: Vec<Event> = bad
        .iter()
        .chain(&flock)
        .filter_map(|&b| d.push(b))
        .collect();
    assert!(matches!(
        events.as_slice(),
        [Event::Message(Message::Flock(_))]
    ));
    assert_eq!(d.stats().crc_errors, 0);
    assert_eq!(d.stats().skipped_bytes as usize, bad.len() - 1);
}

#[test]
fn corrupt_frames_are_counted_by_kind() {
    let good = encode(|o| {
        encode_flock(
            1,
            &[BirdRecord {
                x: 5,
                y: -5,
                angle: 9,
                state: 1,
            }],
            o,
        )
    });
    let mut flipped = good.clone();
    flipped[6] ^= 0x10;
    let mut bad_len = [0u8; 32];
    let n = frame(&[2, 1, 0, 0, 0, 3, 1, 2], &mut bad_len).unwrap(); // count 3, no records
    let unknown = encode(|o| frame(&[0x7E, 1, 2, 3], o));
    let oversize = vec![0x55u8; MAX_FRAME + 10];
    let bad_cobs = [0x05u8, 1, 2, 0]; // code says 4 data bytes, only 2 follow
    let mut stream = Vec::new();
    for part in [
        &good[..],
        &flipped,
        &bad_len[..n],
        &unknown,
        &oversize,
        &[0],
        &bad_cobs,
        &good,
    ] {
        stream.extend_from_slice(part);
    }
    let (msgs, s) = decode_all(&stream);
    assert_eq!(s.crc_errors, 1);
    assert_eq!(s.framing_errors, 3, "bad length, oversize, bad COBS");
    assert_eq!(s.unknown_kind, 1);
    assert_eq!(s.frames, 2);
    assert_eq!(
        msgs.iter()
            .filter(|m| matches!(m, Message::Flock(_)))
            .count(),
        2
    );
}

proptest! {
    #[test]
    fn cobs_round_trips(data in proptest::collection::vec(any::<u8>(), 0..1100)) {
        let mut enc = vec![0u8; murmur_board_link::cobs::max_encoded_len(data.len())];
        let n = murmur_board_link::cobs::encode(&data, &mut enc).unwrap();
        prop_assert!(!enc[..n].contains(&0));
        let m = murmur_board_link::cobs::decode_in_place(&mut enc[..n]).unwrap();
        prop_assert_eq!(&enc[..m], &data[..]);
    }

    #[test]
    fn flocks_round_trip(tick in any::<u32>(), birds in proptest::collection::vec((any::<i16>(), any::<i16>(), any::<u8>(), 0u8..5), 0..=murmur_board_link::message::MAX_BIRDS)) {
        let recs: Vec<BirdRecord> = birds.iter().map(|&(x, y, angle, state)| BirdRecord { x, y, angle, state }).collect();
        let wire = encode(|o| encode_flock(tick, &recs, o));
        let (msgs, s) = decode_all(&wire);
        prop_assert_eq!(s.frames, 1);
        let Message::Flock(f) = msgs[0] else { panic!("a flock") };
        prop_assert_eq!(f.tick, tick);
        prop_assert_eq!(f.birds(), &recs[..]);
    }

    #[test]
    fn hellos_round_trip(rev in any::<u8>(), seed in any::<u32>(), birds in any::<u8>(), us in any::<u32>(), name in "[a-zA-Z0-9 ]{0,40}") {
        let h = Hello::new(rev, seed, birds, us, &name);
        let wire = encode(|o| encode_hello(&h, o));
        let (msgs, _) = decode_all(&wire);
        prop_assert_eq!(msgs, vec![Message::Hello(h)]);
    }

    #[test]
    fn the_decoder_survives_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..5000)) {
        let mut d = Decoder::new();
        for b in bytes {
            let _ = d.push(b);
        }
        let s = d.stats();
        prop_assert!(s.frames + s.crc_errors + s.framing_errors + s.unknown_kind <= 5000);
    }
}
