use super::*;

#[test]
fn every_builtin_preset_loads_and_validates() {
    for (name, _) in BUILTIN_PRESETS {
        let preset = Preset::load(name).unwrap_or_else(|e| panic!("{e}"));
        if *name == "obstacles" {
            assert_eq!(preset.model, ModelKind::Reynolds);
            assert_eq!(preset.obstacles.len(), 5);
        } else if *name == "starlings" {
            assert_eq!(preset.model, ModelKind::Starlings);
            assert!(preset.flock_params().is_3d(), "a murmuration is 3D");
        } else if let Some(flat) = name.strip_suffix("3d") {
            assert_eq!(preset.model.name(), flat, "a model's own 3D preset");
            assert!(preset.flock_params().is_3d(), "{name} has a depth");
        } else {
            assert_eq!(preset.model.name(), *name, "a model's own preset");
            assert!(!preset.flock_params().is_3d(), "{name} is flat");
        }
    }
}

#[test]
fn cornell_preset_is_the_published_parameter_set() {
    let p = Preset::load("cornell").unwrap();
    let Model::Cornell(m) = p.model() else {
        panic!()
    };
    assert_eq!(
        (
            m.visual_range,
            m.protected_range,
            m.centering_factor,
            m.avoid_factor
        ),
        (40.0, 8.0, 0.0005, 0.05)
    );
    assert_eq!(
        (m.matching_factor, m.max_speed, m.min_speed),
        (0.05, 6.0, 3.0)
    );
    assert_eq!((p.edges.margin, p.edges.turn_factor), (100.0, 0.2));
    assert_eq!(
        m,
        Cornell::default(),
        "the published set is also the model's default"
    );
}

#[test]
fn a_minimal_file_takes_every_default() {
    let p = Preset::from_toml("model = \"spaceboids\"\n", "mini.toml").unwrap();
    assert_eq!(p.spaceboids, Some(SpaceBoids::default()));
    assert_eq!(p.world, WorldSection::default());
}

#[test]
fn an_unknown_field_is_named_with_its_file_and_line() {
    let text = "model = \"cornell\"\n\n[cornell]\nvisual_range = 40.0\nvisal_range = 3.0\n";
    let err = Preset::from_toml(text, "bad.toml").unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with("bad.toml, line 5: field `cornell.visal_range`"),
        "{msg}"
    );
    assert!(msg.contains("unknown field"), "{msg}");
}

#[test]
fn a_wrong_type_is_named_with_its_line() {
    let text = "model = \"reynolds\"\n[world]\nwidth = \"wide\"\n";
    let msg = Preset::from_toml(text, "t.toml").unwrap_err().to_string();
    assert!(
        msg.starts_with("t.toml, line 3: field `world.width`"),
        "{msg}"
    );
}

#[test]
fn an_out_of_range_value_is_named_with_its_line() {
    let text = "model = \"cornell\"\n[cornell]\nmin_speed = 3.0\nmax_speed = 1.0\n";
    let msg = Preset::from_toml(text, "r.toml").unwrap_err().to_string();
    assert!(
        msg.starts_with("r.toml, line 4: field `cornell.max_speed`"),
        "{msg}"
    );
}

#[test]
fn broken_toml_and_unknown_models_are_errors_not_panics() {
    for text in [
        "model = ",
        "model = \"nope\"",
        "[[[",
        "",
        "model = 3",
        "version = 9\nmodel = \"cornell\"",
    ] {
        assert!(Preset::from_toml(text, "x.toml").is_err(), "{text:?}");
    }
    let e = Preset::load("no-such-preset").unwrap_err();
    assert!(
        e.to_string()
            .contains("reynolds, cornell, spaceboids, vicsek, couzin, abm"),
        "{e}"
    );
    assert!(matches!(
        Preset::load("missing/file.toml"),
        Err(PresetError::Io { .. })
    ));
}

#[test]
fn overrides_use_the_file_names_and_keep_types() {
    let mut p = Preset::load("cornell").unwrap();
    p.apply_overrides(&["visual_range=55", "edges.mode=wrap", "boids=10"])
        .unwrap();
    let Model::Cornell(m) = p.model() else {
        panic!()
    };
    assert_eq!(m.visual_range, 55.0);
    assert_eq!(p.edges.mode, crate::edges::EdgeMode::Wrap);
    assert_eq!(p.world.boids, 10);
    p.set("model", "reynolds").unwrap();
    assert_eq!(p.model, ModelKind::Reynolds);
    assert_eq!(p.reynolds, Some(Reynolds::default()));
}

#[test]
fn bad_overrides_are_refused_with_the_valid_names() {
    let mut p = Preset::load("cornell").unwrap();
    let e = p.set("visul_range", "3").unwrap_err().to_string();
    assert!(e.contains("unknown parameter `visul_range`"), "{e}");
    assert!(
        e.contains("cornell.visual_range") && e.contains("edges.mode"),
        "{e}"
    );
    assert!(
        p.set("boids", "many")
            .unwrap_err()
            .to_string()
            .contains("whole number")
    );
    assert!(p.set("edges.mode", "spiral").is_err());
    assert!(
        p.set("visual_range", "-1")
            .unwrap_err()
            .to_string()
            .contains("cornell.visual_range")
    );
    assert!(p.apply_overrides(&["visual_range"]).is_err());
    // A refused override leaves the preset as it was.
    assert_eq!(p, Preset::load("cornell").unwrap());
}

#[test]
fn toml_round_trip_keeps_everything() {
    for (name, _) in BUILTIN_PRESETS {
        let p = Preset::load(name).unwrap();
        let again = Preset::from_toml(&p.to_toml(), "round-trip").unwrap();
        assert_eq!(p, again);
    }
}
