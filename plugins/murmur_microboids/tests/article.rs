//! The "microboids 101" article's revision: each way it differs from a412, tested on its own.

use murmur_microboids::neighbours::collect;
use murmur_microboids::q15::{avg, mul, q};
use murmur_microboids::trig::QCOS;
use murmur_microboids::{Bird, BirdState, Flock, Revision, XorShift32};

fn bird(x: i16, y: i16, angle: u8, avg_angle: u8) -> Bird {
    Bird {
        x: q(x),
        y: q(y),
        angle,
        avg_angle,
        state: BirdState::Idle,
    }
}

#[test]
fn init_is_seeded_and_starts_the_average_at_the_heading() {
    let a: Flock = Flock::new(Revision::Article, 48, 0xCAFE_F00D).unwrap();
    let b: Flock = Flock::new(Revision::Article, 48, 0x0BAD_5EED).unwrap();
    assert_ne!(a.birds(), b.birds(), "each board its own murmuration");
    // Bird 0 takes xorshift steps 1, 2, 3 from the seed.
    let mut rng = XorShift32(0xCAFE_F00D);
    let (x, y, angle) = (
        (rng.step() >> 16) as u16 as i16,
        (rng.step() >> 16) as u16 as i16,
        (rng.step() >> 24) as u8,
    );
    let b0 = a.birds()[0];
    assert_eq!((b0.x.to_bits(), b0.y.to_bits(), b0.angle), (x, y, angle));
    assert!(a.birds().iter().all(|b| b.avg_angle == b.angle));
    // a412 ignores the seed.
    let c: Flock = Flock::new(Revision::A412, 48, 0xCAFE_F00D).unwrap();
    let d: Flock = Flock::new(Revision::A412, 48, 0x0BAD_5EED).unwrap();
    assert_eq!(c.birds(), d.birds());
}

#[test]
fn alignment_carries_each_birds_average_angle() {
    // Bird 0 remembers an average of 200; bird 1, its only neighbour, heads at 100.
    let birds = [bird(0, 0, 90, 200), bird(3000, 0, 100, 100)];
    let mut article: Flock<2> = Flock::from_birds(Revision::Article, &birds, 1, 0).unwrap();
    let mut a412: Flock<2> = Flock::from_birds(Revision::A412, &birds, 1, 0).unwrap();
    article.tick(None);
    a412.tick(None);
    let carried = avg(q(200), q(100), q(0x3FFF)).to_bits() as u8;
    let from_zero = avg(q(0), q(100), q(0x3FFF)).to_bits() as u8;
    assert_eq!(article.birds()[0].avg_angle, carried);
    assert_eq!(a412.birds()[0].avg_angle, from_zero);
    assert_ne!(carried, from_zero);
}

#[test]
fn every_step_is_the_constant_distance() {
    // A lone bird heading along +x: each tick moves exactly Mul(0x0BFF, qcos[0]).
    let mut flock: Flock<1> =
        Flock::from_birds(Revision::Article, &[bird(-20000, 0, 0, 0)], 1, 0).unwrap();
    let step = mul(q(0x0BFF), QCOS[0]).to_bits();
    let mut x = -20000i16;
    for _ in 0..5 {
        flock.tick(None);
        x += step;
        assert_eq!(flock.birds()[0].x.to_bits(), x);
    }
    // a412 draws each step from the speed generator: steps differ tick to tick.
    let mut random: Flock<1> =
        Flock::from_birds(Revision::A412, &[bird(-20000, 0, 0, 0)], 0x1312_1312, 0).unwrap();
    let mut steps = Vec::new();
    for _ in 0..3 {
        let before = random.birds()[0].x.to_bits();
        random.tick(None);
        steps.push(random.birds()[0].x.to_bits() - before);
    }
    assert!(steps.windows(2).any(|w| w[0] != w[1]), "{steps:?}");
}

#[test]
fn the_neighbour_box_has_no_pixel_era_quirk() {
    // Bird 0 at x = 20000: its separation box's left edge (19360) is >= 128, which a412 resets
    // to 0, so a412 counts bird 1 at x = 5000 as inside; the article's box does not.
    let birds = [bird(20000, 0, 0, 0), bird(5000, 0, 0, 0)];
    let sep = Revision::A412.params().sep_radius;
    assert_eq!(
        collect(&birds, 0, sep, Revision::A412.params().box_quirk).as_slice(),
        &[1]
    );
    assert!(collect(&birds, 0, sep, Revision::Article.params().box_quirk).is_empty());
    assert!(!Revision::Article.params().box_quirk);
}
