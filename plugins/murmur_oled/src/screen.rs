//! An OLED screen: a sprite whose 128x64 image mirrors a board's frame buffer.

use crate::board::Board;
use bevy_asset::{Assets, Handle, RenderAssetUsages};
use bevy_ecs::prelude::*;
use bevy_image::{Image, ImageSampler};
use bevy_math::Vec2;
use bevy_render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy_sprite::Sprite;
use murmur_microboids::display::{HEIGHT, WIDTH};

/// Colour of a lit pixel (sRGB): the pale blue-white of an SSD1306.
pub const OLED_LIT: [u8; 4] = [190, 225, 255, 255];
const DARK: [u8; 4] = [0, 0, 0, 255];

/// Shows `board`'s OLED buffer on this entity's sprite.
#[derive(Component, Clone, Debug)]
pub struct OledScreen {
    /// The board entity to show.
    pub board: Entity,
    /// The image the sprite draws.
    pub image: Handle<Image>,
    shown: Option<u64>,
}

/// Spawns a screen for `board`, `scale` screen pixels per OLED pixel, and returns it. Add a
/// `Transform` and render layers to place it.
pub fn spawn_screen(
    commands: &mut Commands,
    images: &mut Assets<Image>,
    board: Entity,
    scale: f32,
) -> Entity {
    let mut image = Image::new_fill(
        Extent3d {
            width: WIDTH as u32,
            height: HEIGHT as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        &DARK,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    // Crisp pixels when scaled up.
    image.sampler = ImageSampler::nearest();
    let image = images.add(image);
    commands
        .spawn((
            Sprite {
                image: image.clone(),
                custom_size: Some(Vec2::new(WIDTH as f32, HEIGHT as f32) * scale),
                ..Default::default()
            },
            OledScreen {
                board,
                image,
                shown: None,
            },
        ))
        .id()
}

pub(crate) fn draw_screens(
    boards: Query<&Board>,
    mut screens: Query<&mut OledScreen>,
    mut images: ResMut<Assets<Image>>,
) {
    for mut screen in &mut screens {
        let Ok(board) = boards.get(screen.board) else {
            continue;
        };
        if screen.shown == Some(board.generation) {
            continue;
        }
        let Some(mut image) = images.get_mut(&screen.image) else {
            continue;
        };
        let Some(data) = image.data.as_mut() else {
            continue;
        };
        for row in 0..HEIGHT {
            for col in 0..WIDTH {
                let at = 4 * (row * WIDTH + col);
                let colour = if board.oled.lit(col, row) {
                    OLED_LIT
                } else {
                    DARK
                };
                data[at..at + 4].copy_from_slice(&colour);
            }
        }
        screen.shown = Some(board.generation);
    }
}
