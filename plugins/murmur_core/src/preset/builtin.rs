//! The presets that ship inside the binary (the files in `assets/presets/`).

/// `(name, TOML text)` of each built-in preset.
pub const BUILTIN_PRESETS: &[(&str, &str)] = &[
    (
        "reynolds",
        include_str!("../../../../assets/presets/reynolds.toml"),
    ),
    (
        "cornell",
        include_str!("../../../../assets/presets/cornell.toml"),
    ),
    (
        "spaceboids",
        include_str!("../../../../assets/presets/spaceboids.toml"),
    ),
    (
        "vicsek",
        include_str!("../../../../assets/presets/vicsek.toml"),
    ),
    (
        "couzin",
        include_str!("../../../../assets/presets/couzin.toml"),
    ),
    ("abm", include_str!("../../../../assets/presets/abm.toml")),
    (
        "obstacles",
        include_str!("../../../../assets/presets/obstacles.toml"),
    ),
];

/// Names of the built-in presets.
pub fn builtin_names() -> Vec<String> {
    BUILTIN_PRESETS.iter().map(|(n, _)| n.to_string()).collect()
}
