//! A mirror fed raw bytes (as the web page's serial port hands them over, in pieces of any
//! size) counts exactly what the reader thread's events give it for the same stream.

use murmur_board_link::Decoder;
use murmur_microboids::Revision;
use murmur_serial::link::{LinkEvent, LinkHandle, Source};
use murmur_serial::virtual_board::{self, BoardConfig, Faults};
use murmur_serial::{Mirror, MirrorReport};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// A board stream with every kind of fault, and a reset.
fn faulty_stream() -> Vec<u8> {
    let config = BoardConfig {
        revision: Revision::A412,
        announce: None,
        seed: 0x1234_5678,
        birds: 48,
        name: "test board".into(),
        fast: true,
        ticks: Some(400),
        faults: Faults {
            drop_every: Some(29),
            flip_every: Some(31),
            noise_every: Some(37),
            truncate_every: Some(41),
            reset_at: Some(250),
            ..Faults::default()
        },
    };
    let mut out = Vec::new();
    virtual_board::run(&config, &mut out).unwrap();
    out
}

/// The reader thread's view: the stream replayed from a file.
fn through_the_thread(stream: &[u8]) -> MirrorReport {
    // One file per call: the tests run side by side.
    static CALLS: AtomicU32 = AtomicU32::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!(
        "murmur-take-bytes-{}-{call}.bin",
        std::process::id()
    ));
    std::fs::write(&path, stream).unwrap();
    let link = LinkHandle::start(Source::File(path.clone()), None).unwrap();
    let mut mirror = Mirror::new();
    loop {
        let event = link
            .recv_timeout(Duration::from_secs(30))
            .expect("the replay ends");
        mirror.handle(&event);
        if matches!(event, LinkEvent::Ended(_)) {
            break;
        }
    }
    std::fs::remove_file(&path).unwrap();
    mirror.report()
}

#[test]
fn bytes_in_any_pieces_count_as_the_reader_threads_events_do() {
    let stream = faulty_stream();
    let expected = through_the_thread(&stream);
    assert!(
        expected.crc_errors > 0
            && expected.framing_errors > 0
            && expected.lost_frames > 0
            && expected.resets == 1
            && expected.in_sync,
        "the stream has its faults: {expected:?}"
    );
    for piece in [1, 7, 301, 4096, stream.len()] {
        let mut mirror = Mirror::new();
        let mut decoder = Decoder::new();
        for chunk in stream.chunks(piece) {
            mirror.take_bytes(&mut decoder, chunk);
        }
        assert_eq!(mirror.report(), expected, "in pieces of {piece} bytes");
    }
}

#[test]
fn a_spoiled_byte_counts_the_same_fed_either_way() {
    let mut stream = faulty_stream();
    // Spoil one byte inside a frame late in the stream: a CRC error, not a divergence.
    let at = stream.len() * 3 / 4;
    let at = at + stream[at..].iter().position(|&b| b > 1).unwrap();
    stream[at] ^= 0x40;
    let mut mirror = Mirror::new();
    mirror.take_bytes(&mut Decoder::new(), &stream);
    let spoiled = mirror.report();
    assert_eq!(spoiled, through_the_thread(&stream));
    assert!(
        spoiled.in_sync,
        "a bad CRC is a lost frame, not a divergence"
    );
}
