//! The view: a world camera that draws into an image (so trails can persist), a screen camera
//! that shows that image and the UI, pan and zoom, the playfield the panel leaves, the follow
//! camera, the arrows to what is out of view, and the cursor in world coordinates.

pub mod arrows;
pub mod follow;
pub mod playfield;

pub use follow::FollowCamera;
pub use playfield::Playfield;

use super::scene::SceneConfig;
use bevy::camera::RenderTarget;
use bevy::camera::visibility::RenderLayers;
use bevy::core_pipeline::tonemapping::DebandDither;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;
use bevy::window::{PrimaryWindow, WindowResized};
use bevy_egui::PrimaryEguiContext;
use bevy_egui::input::EguiWantsInput;

/// Layer of everything in the world (drawn into the trail image).
pub const WORLD_LAYER: usize = 1;
/// Layer of the screen (the trail image itself).
pub const SCREEN_LAYER: usize = 0;
/// The p5 sketch's sky: rgb(112, 231, 255).
pub const BACKGROUND: Color = Color::srgb_u8(112, 231, 255);

/// The camera looking at the world; it renders into [`ViewImage`].
#[derive(Component)]
pub struct WorldCamera;

/// The camera drawing the window: the view image, then the UI.
#[derive(Component)]
pub struct ScreenCamera;

/// The sprite showing the view image on screen.
#[derive(Component)]
struct ViewSprite;

/// The image the world camera draws into, the size of the window in pixels.
#[derive(Resource, Clone)]
pub struct ViewImage(pub Handle<Image>);

/// Where the cursor points in the world, when it is over the window.
#[derive(Resource, Default, Clone, Copy, Debug)]
pub struct CursorWorld(pub Option<Vec2>);

/// Fits the whole world in view again (after the world changed size).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct FitView;

/// The view is the whole world fitted into the playfield (at start and after Home), not a
/// view the user zoomed, panned or the camera followed to; it is fitted again when the
/// playfield changes.
#[derive(Resource, Clone, Copy, Debug)]
pub struct FittedView(pub bool);

/// Runs before anything that reads [`CursorWorld`].
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrackCursor;

/// Adds this module's resources and systems.
pub fn plugin(app: &mut App) {
    app.init_resource::<CursorWorld>()
        .init_resource::<Playfield>()
        .insert_resource(FittedView(true))
        .add_message::<FitView>()
        .add_plugins((follow::plugin, arrows::plugin))
        .add_systems(Startup, spawn_cameras)
        .add_systems(
            Update,
            (
                fit_view_image,
                (zoom, pan, recentre),
                keep_playfield_centre,
                follow::follow_keys,
                follow::follow_player,
                (
                    follow::draw_around_view,
                    arrows::find_arrows.run_if(crate::app::deep::flat),
                ),
                track_cursor
                    .run_if(crate::app::deep::flat)
                    .in_set(TrackCursor),
            )
                .chain(),
        )
        .add_systems(Update, match_space)
        .add_systems(bevy_egui::EguiPrimaryContextPass, arrows::draw_arrows);
}

fn window_pixels(window: &Window) -> UVec2 {
    UVec2::new(
        window.physical_width().max(1),
        window.physical_height().max(1),
    )
}

/// Orthographic scale that fits the world in the window with a little room.
pub fn fit_scale(world: Vec2, window: Vec2) -> f32 {
    1.05 * (world.x / window.x.max(1.0)).max(world.y / window.y.max(1.0))
}

fn spawn_cameras(
    mut commands: Commands,
    mut images: ResMut<Assets<Image>>,
    window: Single<&Window, With<PrimaryWindow>>,
    config: Res<SceneConfig>,
) {
    let size = window_pixels(&window);
    let image = images.add(Image::new_target_texture(
        size.x,
        size.y,
        TextureFormat::Rgba8UnormSrgb,
        None,
    ));
    commands.insert_resource(ViewImage(image.clone()));
    let world = Vec2::new(config.preset.world.width, config.preset.world.height);
    commands.spawn((
        Camera2d,
        WorldCamera,
        Camera {
            order: -1,
            clear_color: ClearColorConfig::Custom(BACKGROUND),
            ..default()
        },
        RenderTarget::Image(image.clone().into()),
        Msaa::Off,
        // No dithering: it would add fresh noise every frame to an image that is never cleared.
        DebandDither::Disabled,
        Projection::Orthographic(OrthographicProjection {
            scale: fit_scale(world, size.as_vec2()),
            ..OrthographicProjection::default_2d()
        }),
        RenderLayers::layer(WORLD_LAYER),
    ));
    commands.spawn((
        Camera2d,
        ScreenCamera,
        Camera {
            order: 0,
            clear_color: ClearColorConfig::Custom(BACKGROUND),
            ..default()
        },
        // The screen only shows an image and text: multisampling would cost without showing.
        Msaa::Off,
        DebandDither::Disabled,
        RenderLayers::layer(SCREEN_LAYER),
        PrimaryEguiContext,
    ));
    commands.spawn((
        Sprite {
            image,
            custom_size: Some(Vec2::new(window.width(), window.height())),
            ..default()
        },
        ViewSprite,
        RenderLayers::layer(SCREEN_LAYER),
    ));
}

/// The flat view (the world camera's image on a sprite) shows only in the flat scene; in the 3D
/// scene the screen camera draws the UI over the 3D camera's picture, and the cursor has no
/// flat world point.
fn match_space(
    space: Option<Res<State<crate::app::deep::Space>>>,
    mut world: Query<&mut Camera, (With<WorldCamera>, Without<ScreenCamera>)>,
    mut screen: Query<&mut Camera, (With<ScreenCamera>, Without<WorldCamera>)>,
    mut sprite: Query<&mut Visibility, With<ViewSprite>>,
    mut cursor: ResMut<CursorWorld>,
) {
    let flat = crate::app::deep::flat(space);
    for mut camera in &mut world {
        if camera.is_active != flat {
            camera.is_active = flat;
        }
    }
    let clear = if flat {
        ClearColorConfig::Custom(BACKGROUND)
    } else {
        ClearColorConfig::None
    };
    for mut camera in &mut screen {
        if std::mem::discriminant(&camera.clear_color) != std::mem::discriminant(&clear) {
            camera.clear_color = clear;
        }
    }
    let shown = if flat {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    };
    for mut visibility in &mut sprite {
        if *visibility != shown {
            *visibility = shown;
        }
    }
    if !flat && cursor.0.is_some() {
        cursor.0 = None;
    }
}

/// Keeps the view image the size of the window.
fn fit_view_image(
    mut resized: MessageReader<WindowResized>,
    window: Single<&Window, With<PrimaryWindow>>,
    view: Option<Res<ViewImage>>,
    mut images: ResMut<Assets<Image>>,
    mut sprite: Single<&mut Sprite, With<ViewSprite>>,
) {
    if resized.read().count() == 0 {
        return;
    }
    let Some(view) = view else { return };
    let size = window_pixels(&window);
    if let Some(mut image) = images.get_mut(&view.0) {
        image.resize(bevy::render::render_resource::Extent3d {
            width: size.x,
            height: size.y,
            depth_or_array_layers: 1,
        });
    }
    sprite.custom_size = Some(Vec2::new(window.width(), window.height()));
}

/// Mouse wheel zooms about the cursor.
fn zoom(
    scroll: Res<AccumulatedMouseScroll>,
    wants: Res<EguiWantsInput>,
    cursor: Res<CursorWorld>,
    mut fitted: ResMut<FittedView>,
    camera: Single<(&mut Projection, &mut Transform), With<WorldCamera>>,
) {
    if scroll.delta.y == 0.0 || wants.wants_any_pointer_input() {
        return;
    }
    fitted.0 = false;
    let (mut projection, mut transform) = camera.into_inner();
    if let Projection::Orthographic(ortho) = &mut *projection {
        let factor = 0.9f32.powf(scroll.delta.y.clamp(-5.0, 5.0));
        let new_scale = (ortho.scale * factor).clamp(0.02, 200.0);
        // Keep the point under the cursor where it is.
        if let Some(anchor) = cursor.0 {
            let centre = transform.translation.truncate();
            let moved = anchor + (centre - anchor) * (new_scale / ortho.scale);
            transform.translation.x = moved.x;
            transform.translation.y = moved.y;
        }
        ortho.scale = new_scale;
    }
}

/// Dragging with the middle mouse button pans (and stops following the gold bird until it
/// flies again).
fn pan(
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    mut fitted: ResMut<FittedView>,
    mut follow: ResMut<FollowCamera>,
    camera: Single<(&Projection, &mut Transform), With<WorldCamera>>,
) {
    if !buttons.pressed(MouseButton::Middle) || motion.delta == Vec2::ZERO {
        return;
    }
    fitted.0 = false;
    follow.engaged = false;
    let (projection, mut transform) = camera.into_inner();
    if let Projection::Orthographic(ortho) = projection {
        transform.translation.x -= motion.delta.x * ortho.scale;
        transform.translation.y += motion.delta.y * ortho.scale;
    }
}

/// `Home` fits the whole world into the playfield again (and stops following the gold bird
/// until it flies again).
fn recentre(
    keys: Res<ButtonInput<KeyCode>>,
    mut fit: MessageReader<FitView>,
    config: Res<SceneConfig>,
    playfield: Res<Playfield>,
    mut fitted: ResMut<FittedView>,
    mut follow: ResMut<FollowCamera>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Projection, &mut Transform), With<WorldCamera>>,
) {
    if !keys.just_pressed(KeyCode::Home) && fit.read().count() == 0 {
        return;
    }
    if keys.just_pressed(KeyCode::Home) {
        follow.engaged = false;
    }
    fitted.0 = true;
    let (mut projection, mut transform) = camera.into_inner();
    fit_into_playfield(
        &config,
        &playfield,
        &window,
        &mut projection,
        &mut transform,
    );
}

/// Fits the world into the playfield, centred there.
fn fit_into_playfield(
    config: &SceneConfig,
    playfield: &Playfield,
    window: &Window,
    projection: &mut Projection,
    transform: &mut Transform,
) {
    let Projection::Orthographic(ortho) = projection else {
        return;
    };
    let field = playfield.in_pixels(window.scale_factor());
    let world = Vec2::new(config.preset.world.width, config.preset.world.height);
    ortho.scale = fit_scale(world, field.size(window_pixels(window).as_vec2()));
    let at = field.camera_for(Vec2::ZERO, ortho.scale);
    transform.translation.x = at.x;
    transform.translation.y = at.y;
}

/// When the panel opens, closes or is resized: a fitted view is fitted again; any other keeps
/// the world point at the playfield's centre where it is.
fn keep_playfield_centre(
    playfield: Res<Playfield>,
    mut last: Local<Option<Playfield>>,
    fitted: Res<FittedView>,
    config: Res<SceneConfig>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Projection, &mut Transform), With<WorldCamera>>,
) {
    let before = last.replace(*playfield).unwrap_or_default();
    if before == *playfield {
        return;
    }
    let (mut projection, mut transform) = camera.into_inner();
    if fitted.0 {
        fit_into_playfield(
            &config,
            &playfield,
            &window,
            &mut projection,
            &mut transform,
        );
    } else if let Projection::Orthographic(ortho) = &*projection {
        let f = window.scale_factor();
        let shift = (before.in_pixels(f).centre_offset() - playfield.in_pixels(f).centre_offset())
            * ortho.scale;
        transform.translation.x += shift.x;
        transform.translation.y += shift.y;
    }
}

/// The cursor's window position carried through the world camera (which draws into an image
/// with the window's pixel size).
fn track_cursor(
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<WorldCamera>>,
    mut cursor: ResMut<CursorWorld>,
) {
    let (camera, transform) = *camera;
    cursor.0 = window
        .physical_cursor_position()
        .and_then(|p| camera.viewport_to_world_2d(transform, p).ok());
}
