//! The board in an `App`: it ticks by its own 31.872 ms clock (not the 60 Hz flock tick), draws
//! as the firmware draws, and a screen shows exactly the lit pixels of its buffer.

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use murmur_microboids::display::{HEIGHT, WIDTH, pixel_of};
use murmur_microboids::{Flock, Revision};
use murmur_oled::{Board, MicroboidsPlugin, OLED_LIT, OledScreen, spawn_screen};
use std::time::Duration;

fn app(frame: Duration) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, MicroboidsPlugin))
        .init_resource::<Assets<Image>>()
        .insert_resource(TimeUpdateStrategy::ManualDuration(frame));
    app
}

#[test]
fn the_board_ticks_by_its_own_clock() {
    let mut app = app(Duration::from_millis(10));
    let board = app
        .world_mut()
        .spawn(Board::new(Revision::A412, 48, 1).unwrap())
        .id();
    for _ in 0..101 {
        app.update(); // the first update has no elapsed time
    }
    // 1 s of 10 ms frames at 31.872 ms per tick.
    assert_eq!(
        app.world().get::<Board>(board).unwrap().flock.tick_count(),
        31
    );
}

#[test]
fn the_board_matches_the_model_and_its_screen_shows_its_pixels() {
    let mut app = app(Duration::from_secs_f64(murmur_microboids::TICK_SECONDS));
    let board = app
        .world_mut()
        .spawn(Board::new(Revision::A412, 48, 1).unwrap())
        .id();
    let screen = app.world_mut().run_system_once(
        move |mut commands: Commands, mut images: ResMut<Assets<Image>>| {
            spawn_screen(&mut commands, &mut images, board, 4.0)
        },
    );
    let screen = screen.unwrap();
    for _ in 0..21 {
        app.update();
    }
    let b = app.world().get::<Board>(board).unwrap().clone();
    let ticks = b.flock.tick_count();
    assert!(ticks >= 19, "{ticks}");
    let mut model: Flock = Flock::new(Revision::A412, 48, 1).unwrap();
    for _ in 0..ticks {
        model.tick(None);
    }
    assert_eq!(
        b.flock.birds(),
        model.birds(),
        "the board runs the firmware model"
    );
    // Every bird's pixel is lit (SPEC 10: 512 units per column, 1024 per row, row 0 at the top).
    for bird in model.birds() {
        let (col, row) = pixel_of(bird.x, bird.y);
        assert!(b.oled.lit(col, row));
    }
    let handle = app.world().get::<OledScreen>(screen).unwrap().image.clone();
    let images = app.world().resource::<Assets<Image>>();
    let data = images.get(&handle).unwrap().data.clone().unwrap();
    let mut lit = 0;
    for row in 0..HEIGHT {
        for col in 0..WIDTH {
            let px = &data[4 * (row * WIDTH + col)..][..4];
            assert_eq!(px == OLED_LIT, b.oled.lit(col, row), "pixel ({col}, {row})");
            lit += (px == OLED_LIT) as usize;
        }
    }
    assert_eq!(lit, b.oled.lit_count());
    assert!(lit > 30, "most of 48 birds visible: {lit}");
}

#[test]
fn pixel_mapping_follows_the_spec() {
    use murmur_microboids::q15::q;
    assert_eq!(pixel_of(q(-32768), q(-32768)), (0, 0));
    assert_eq!(pixel_of(q(-1), q(-1)), (63, 31));
    assert_eq!(pixel_of(q(0), q(0)), (64, 32));
    assert_eq!(pixel_of(q(511), q(1023)), (64, 32));
    assert_eq!(pixel_of(q(512), q(1024)), (65, 33));
    assert_eq!(pixel_of(q(32767), q(32767)), (127, 63));
}

#[test]
fn a_paused_board_stands_still_and_reset_boots_it_again() {
    let mut app = app(Duration::from_millis(40));
    let mut board = Board::new(Revision::Article, 48, 77).unwrap();
    let start = board.flock.birds().to_vec();
    board.paused = true;
    let id = app.world_mut().spawn(board).id();
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(app.world().get::<Board>(id).unwrap().flock.tick_count(), 0);
    app.world_mut().get_mut::<Board>(id).unwrap().paused = false;
    for _ in 0..10 {
        app.update();
    }
    let mut b = app.world_mut().get_mut::<Board>(id).unwrap();
    assert!(b.flock.tick_count() > 0);
    b.reset();
    assert_eq!(b.flock.birds(), &start[..]);
}
