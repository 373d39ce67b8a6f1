//! The page's egui fonts: egui's proportional and monospace faces (Ubuntu Light and Hack) without
//! its two emoji fonts, which would add 0.42 MB brotli to the module and which the panel does
//! not use. The native app keeps all four (egui's `default_fonts`).

use bevy::prelude::*;
use bevy_egui::{EguiContext, egui};
use std::sync::Arc;

/// Gives each new egui context the page's fonts, before its first pass draws any text.
pub fn page_fonts(added: On<Add, EguiContext>, mut contexts: Query<&mut EguiContext>) {
    let Ok(mut context) = contexts.get_mut(added.entity) else {
        return;
    };
    let mut fonts = egui::FontDefinitions::empty();
    for (name, data) in [
        ("Ubuntu-Light", epaint_default_fonts::UBUNTU_LIGHT),
        ("Hack", epaint_default_fonts::HACK_REGULAR),
    ] {
        fonts
            .font_data
            .insert(name.to_owned(), Arc::new(egui::FontData::from_static(data)));
    }
    // Each family falls back on the other's face for a glyph it lacks.
    fonts.families.insert(
        egui::FontFamily::Proportional,
        vec!["Ubuntu-Light".to_owned(), "Hack".to_owned()],
    );
    fonts.families.insert(
        egui::FontFamily::Monospace,
        vec!["Hack".to_owned(), "Ubuntu-Light".to_owned()],
    );
    context.get_mut().set_fonts(fonts);
}
