//! What can go wrong with a preset, said in one line that names the file, the line and the field.

use std::fmt;

/// A preset that could not be loaded or changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PresetError {
    /// The file could not be read.
    Io {
        /// The path given.
        path: String,
        /// The system's reason.
        message: String,
    },
    /// The text is not valid TOML, or does not fit the schema.
    Parse {
        /// The file (or built-in name).
        origin: String,
        /// 1-based line of the offending text, when known.
        line: Option<usize>,
        /// `table.field` at that line, when there is one.
        field: Option<String>,
        /// What is wrong.
        message: String,
    },
    /// A value is out of range.
    Invalid {
        /// The file, built-in name or `--set`.
        origin: String,
        /// 1-based line of the field, when it is in the text.
        line: Option<usize>,
        /// `table.field`.
        field: String,
        /// What is wrong.
        message: String,
    },
    /// No built-in preset has this name and it is not a file.
    UnknownPreset {
        /// The name given.
        name: String,
        /// The built-in names.
        available: Vec<String>,
    },
    /// `--set` named a parameter the preset does not have.
    UnknownParam {
        /// The name given.
        name: String,
        /// Every valid name.
        valid: Vec<String>,
    },
    /// `--set` gave a value of the wrong kind.
    BadValue {
        /// The parameter.
        name: String,
        /// The value given.
        value: String,
        /// What was expected.
        message: String,
    },
}

impl PresetError {
    pub(crate) fn parse(origin: &str, text: &str, error: &toml::de::Error) -> Self {
        let line = error.span().map(|s| line_of(text, s.start));
        let field = line.and_then(|l| field_at_line(text, l));
        Self::Parse {
            origin: origin.to_string(),
            line,
            field,
            message: one_line(error.message()),
        }
    }

    pub(crate) fn invalid(origin: &str, text: Option<&str>, field: &str, message: String) -> Self {
        Self::Invalid {
            origin: origin.to_string(),
            line: text.and_then(|t| locate_field(t, field)),
            field: field.to_string(),
            message,
        }
    }
}

impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = |line: &Option<usize>| line.map(|l| format!(", line {l}")).unwrap_or_default();
        match self {
            Self::Io { path, message } => write!(f, "cannot read preset file {path}: {message}"),
            Self::Parse {
                origin,
                line,
                field,
                message,
            } => {
                write!(f, "{origin}{}: ", at(line))?;
                if let Some(field) = field {
                    write!(f, "field `{field}`: ")?;
                }
                write!(f, "{message}")
            }
            Self::Invalid {
                origin,
                line,
                field,
                message,
            } => {
                write!(f, "{origin}{}: field `{field}` {message}", at(line))
            }
            Self::UnknownPreset { name, available } => write!(
                f,
                "unknown preset `{name}`: built-in presets are {}; or give the path of a .toml file",
                available.join(", ")
            ),
            Self::UnknownParam { name, valid } => write!(
                f,
                "unknown parameter `{name}`; valid names: {}",
                valid.join(", ")
            ),
            Self::BadValue {
                name,
                value,
                message,
            } => {
                write!(f, "bad value `{value}` for `{name}`: {message}")
            }
        }
    }
}

impl std::error::Error for PresetError {}

fn one_line(message: &str) -> String {
    message.trim().replace('\n', "; ")
}

/// 1-based line number of byte `offset`.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// `table.key` for a `key = value` line (1-based), from the last `[table]` header above it.
fn field_at_line(text: &str, line: usize) -> Option<String> {
    let mut table = String::new();
    for (n, raw) in text.lines().enumerate() {
        let l = strip_comment(raw);
        if let Some(header) = l.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            table = header.trim().to_string();
        }
        if n + 1 == line {
            let key = l.split_once('=')?.0.trim().trim_matches('"');
            return Some(if table.is_empty() {
                key.to_string()
            } else {
                format!("{table}.{key}")
            });
        }
    }
    None
}

/// 1-based line of `table.key` (or a top-level `key`) in the text.
fn locate_field(text: &str, field: &str) -> Option<usize> {
    let (table, key) = field.rsplit_once('.').unwrap_or(("", field));
    let mut current = String::new();
    for (n, raw) in text.lines().enumerate() {
        let l = strip_comment(raw);
        if let Some(header) = l.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            current = header.trim().to_string();
        } else if current == table
            && l.split_once('=')
                .is_some_and(|(k, _)| k.trim().trim_matches('"') == key)
        {
            return Some(n + 1);
        }
    }
    None
}

fn strip_comment(line: &str) -> &str {
    // Good enough for preset files: no `#` inside the strings we care about before the `=`.
    line.split_once('#').map_or(line, |(a, _)| a).trim()
}
