//! The keys live in one place (`murmur::app::keys`): the README's table is that key map as
//! written out, and the help line lists the same inputs.

use murmur::app::keys::{KEYS, does, help_line, markdown_table};

/// The README's table, between its `<!-- keys` and `<!-- /keys -->` markers.
fn readme_table() -> String {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme
        .find("<!-- keys")
        .expect("the README marks its key table");
    let body = &readme[start..];
    let body = &body[body.find('\n').unwrap() + 1..];
    body[..body.find("<!-- /keys -->").expect("and its end")].to_string()
}

#[test]
fn the_readmes_key_table_is_the_key_map() {
    let expected = markdown_table();
    assert_eq!(
        readme_table(),
        expected,
        "README.md's key table differs from src/app/keys.rs; the table it should hold:\n{expected}"
    );
}

#[test]
fn a_changed_key_map_is_caught() {
    // Negative control: the comparison above notices one changed word.
    let changed = markdown_table().replacen("boost", "speed up", 1);
    assert_ne!(readme_table(), changed);
}

#[test]
fn the_help_line_hints_at_each_scenes_inputs_and_only_those() {
    for deep in [false, true] {
        let line = help_line(deep);
        for key in KEYS {
            let (does, hint) = (does(key, deep), key.hint[usize::from(deep)]);
            // A hint only where the scene does something with the input.
            assert!(
                hint.is_empty() || !does.is_empty(),
                "{} hinted at in a scene where it does nothing",
                key.input
            );
            assert!(line.contains(hint), "{hint:?} missing from {line}");
        }
        // Short enough to leave the picture to the birds: three rows of a 1280-pixel window.
        assert!(
            line.chars().count() <= 480,
            "{} characters: {line}",
            line.chars().count()
        );
    }
    let (flat, deep) = (help_line(false), help_line(true));
    assert!(flat.contains("Space pause") && deep.contains("Space/Ctrl climb/dive"));
    // Negative control: what the flat scene lacks is not on the 3D line, and the other way.
    assert!(!deep.contains("trails") && !flat.contains("orbit"));
}
