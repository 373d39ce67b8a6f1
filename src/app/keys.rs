//! The app's keys, mouse and touch in one table: the help line, the panel's key list and the
//! README's table are all read from it (`tests/keys.rs` holds the README to it).

/// One input and what it does in each scene.
#[derive(Clone, Copy, Debug)]
pub struct Key {
    /// The input, as a person reads it: `"WASD / arrows"`, `"Shift + click"`.
    pub input: &'static str,
    /// What it does in the flat scene; empty where it does nothing there.
    pub flat: &'static str,
    /// What it does in the 3D scene; empty where it does nothing there.
    pub deep: &'static str,
    /// Its words on the help line, flat scene then 3D scene: the input and a verb or two, so
    /// the whole line fits in a few rows at the window's bottom. Empty where the scene does
    /// nothing with it, or where a neighbour's words say it (Ctrl in "Space/Ctrl climb/dive").
    pub hint: [&'static str; 2],
}

const fn both(input: &'static str, does: &'static str, hint: &'static str) -> Key {
    Key {
        input,
        flat: does,
        deep: does,
        hint: [hint, hint],
    }
}

/// Every input, in the order the help line and the tables list them.
pub const KEYS: &[Key] = &[
    Key {
        input: "WASD / arrows",
        flat: "fly the gold bird",
        deep: "W/S fly the gold bird forward and back, A/D turn it (it banks); under the orbit camera, as seen from it",
        hint: [
            "WASD/arrows fly the gold bird",
            "W/S fly, A/D turn the gold bird",
        ],
    },
    both("Shift (held)", "boost", "Shift boost"),
    Key {
        input: "Space",
        flat: "pause / resume",
        deep: "climb",
        hint: ["Space pause", "Space/Ctrl climb/dive"],
    },
    Key {
        input: "Ctrl",
        flat: "",
        deep: "dive (never into the ground)",
        hint: ["", ""],
    },
    Key {
        input: "Enter",
        flat: "pause / resume",
        deep: "pause / resume",
        hint: ["", "Enter pause"],
    },
    both("N", "one tick while paused", "N step"),
    Key {
        input: "left click",
        flat: "place or move the leader: the flock streams to it, gathers, circles it",
        deep: "place the leader above the ground under the cursor, at the flock's height",
        hint: ["click leader", "click leader"],
    },
    both(
        "right click, Backspace",
        "remove the leader",
        "right click/Backspace remove it",
    ),
    Key {
        input: "Shift + click, Shift + right click",
        flat: "place an obstacle, remove one",
        deep: "put a column on the ground, remove a placed one",
        hint: ["Shift+click obstacle", "Shift+click column"],
    },
    Key {
        input: "V",
        flat: "the camera follows the gold bird, or stays",
        deep: "chase camera (behind the gold bird) or orbit camera (about the flock)",
        hint: ["V camera follows", "V chase/orbit camera"],
    },
    Key {
        input: "left drag",
        flat: "",
        deep: "orbit the camera",
        hint: ["", "drag orbit"],
    },
    Key {
        input: "wheel, middle drag, Home",
        flat: "zoom about the cursor, pan, fit the world",
        deep: "zoom, pan, frame the whole flock",
        hint: [
            "wheel zoom · middle drag pan · Home fit",
            "wheel zoom · middle drag pan · Home frame the flock",
        ],
    },
    both(
        "F",
        "the flock follows / flees the gold bird",
        "F follow/flee",
    ),
    both("K", "the gold bird a predator, and back", "K predator"),
    both("X", "let a hunter loose", "X hunter"),
    both("R", "reset with the next seed", "R reset (new seed)"),
    Key {
        input: "T",
        flat: "trails",
        deep: "",
        hint: ["T trails", ""],
    },
    both(
        "C, G",
        "colour by local flock size; wing beats",
        "C colours · G wings",
    ),
    Key {
        input: "B",
        flat: "physical birds",
        deep: "",
        hint: ["B physical birds", ""],
    },
    Key {
        input: "O",
        flat: "the board's OLED",
        deep: "",
        hint: ["O board OLED", ""],
    },
    Key {
        input: "Alt + click",
        flat: "pick a bird for the neighbour drawing",
        deep: "",
        hint: ["Alt+click neighbours", ""],
    },
    both("P", "show or hide the side panel", "P panel"),
    both("F12", "save a PNG of the window", "F12 picture"),
    both("F9", "start / stop recording a GIF", "F9 record"),
    both("H", "hide the help line", "H help"),
    Key {
        input: "touch",
        flat: "tap: place the leader; a second finger's tap: remove it; drag: steer the gold bird; pinch: zoom",
        deep: "tap: place the leader above the ground there; a second finger's tap: remove it; drag: orbit the camera; pinch: zoom",
        hint: [
            "touch: tap leader, drag steer, pinch zoom",
            "touch: tap leader, drag orbit, pinch zoom",
        ],
    },
];

/// What `key` does in the scene (`deep`: the 3D one); empty where nothing.
pub fn does(key: &Key, deep: bool) -> &'static str {
    if deep { key.deep } else { key.flat }
}

/// The help line at the window's bottom: the scene's inputs in a word or two each.
pub fn help_line(deep: bool) -> String {
    KEYS.iter()
        .map(|k| k.hint[usize::from(deep)])
        .filter(|hint| !hint.is_empty())
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The table of both scenes in Markdown, as the README has it.
pub fn markdown_table() -> String {
    let mut out = String::from("| input | flat scene | 3D scene |\n|---|---|---|\n");
    for k in KEYS {
        let cell = |s: &str| {
            if s.is_empty() {
                "—".to_string()
            } else {
                s.to_string()
            }
        };
        out += &format!("| {} | {} | {} |\n", k.input, cell(k.flat), cell(k.deep));
    }
    out
}
