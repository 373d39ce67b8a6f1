//! The presets that ship inside the binary (the files in `presets/` beside this crate's sources, packaged with it).

/// `(name, TOML text)` of each built-in preset.
pub const BUILTIN_PRESETS: &[(&str, &str)] = &[
    ("reynolds", include_str!("../../presets/reynolds.toml")),
    ("cornell", include_str!("../../presets/cornell.toml")),
    ("spaceboids", include_str!("../../presets/spaceboids.toml")),
    ("vicsek", include_str!("../../presets/vicsek.toml")),
    ("couzin", include_str!("../../presets/couzin.toml")),
    ("abm", include_str!("../../presets/abm.toml")),
    ("obstacles", include_str!("../../presets/obstacles.toml")),
    ("reynolds3d", include_str!("../../presets/reynolds3d.toml")),
    ("cornell3d", include_str!("../../presets/cornell3d.toml")),
    (
        "spaceboids3d",
        include_str!("../../presets/spaceboids3d.toml"),
    ),
    ("vicsek3d", include_str!("../../presets/vicsek3d.toml")),
    ("couzin3d", include_str!("../../presets/couzin3d.toml")),
    ("abm3d", include_str!("../../presets/abm3d.toml")),
    ("starlings", include_str!("../../presets/starlings.toml")),
];

/// Names of the built-in presets.
pub fn builtin_names() -> Vec<String> {
    BUILTIN_PRESETS.iter().map(|(n, _)| n.to_string()).collect()
}
