//! `NAME=VALUE` overrides, by the names the preset file uses.

use super::{Preset, PresetError};
use toml::{Table, Value};

impl Preset {
    /// Every name `--set` accepts: `model`, `description`, and `table.field` for the world, edges,
    /// leader and active model tables. A bare `field` also works when it is unique.
    pub fn parameter_names(&self) -> Vec<String> {
        let table = self.as_table();
        let mut names = Vec::new();
        for (key, value) in &table {
            match value {
                Value::Table(inner) => names.extend(inner.keys().map(|k| format!("{key}.{k}"))),
                // Obstacles are a list of shapes, not a number to set.
                Value::Array(_) => {}
                _ if key == "version" => {}
                _ => names.push(key.clone()),
            }
        }
        names
    }

    /// Sets one parameter from text, keeping its type, and re-checks the whole preset.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), PresetError> {
        let full = self.resolve_name(name)?;
        let mut table = self.as_table();
        let slot = match full.split_once('.') {
            Some((section, key)) => table
                .get_mut(section)
                .and_then(Value::as_table_mut)
                .and_then(|t| t.get_mut(key)),
            None => table.get_mut(&full),
        }
        .expect("resolved names exist");
        *slot = parse_like(slot, value).map_err(|message| PresetError::BadValue {
            name: full.clone(),
            value: value.to_string(),
            message,
        })?;
        let mut preset: Preset = Value::Table(table)
            .try_into()
            .map_err(|e: toml::de::Error| PresetError::BadValue {
                name: full.clone(),
                value: value.to_string(),
                message: e.message().trim().to_string(),
            })?;
        preset.fill_model_defaults();
        preset
            .validate()
            .map_err(|(field, message)| PresetError::invalid("--set", None, &field, message))?;
        *self = preset;
        Ok(())
    }

    /// The numeric value of parameter `name` (`table.field` or a unique bare field), if it is
    /// a number.
    pub fn value(&self, name: &str) -> Option<f64> {
        let full = self.resolve_name(name).ok()?;
        let table = self.as_table();
        let v = match full.split_once('.') {
            Some((section, key)) => table.get(section)?.as_table()?.get(key)?.clone(),
            None => table.get(&full)?.clone(),
        };
        match v {
            Value::Float(f) => Some(f),
            Value::Integer(i) => Some(i as f64),
            _ => None,
        }
    }

    /// Applies `NAME=VALUE` strings in order.
    pub fn apply_overrides<S: AsRef<str>>(&mut self, overrides: &[S]) -> Result<(), PresetError> {
        for item in overrides {
            let item = item.as_ref();
            let Some((name, value)) = item.split_once('=') else {
                return Err(PresetError::BadValue {
                    name: item.to_string(),
                    value: String::new(),
                    message: "expected NAME=VALUE".into(),
                });
            };
            self.set(name.trim(), value.trim())?;
        }
        Ok(())
    }

    fn resolve_name(&self, name: &str) -> Result<String, PresetError> {
        let names = self.parameter_names();
        if names.iter().any(|n| n == name) {
            return Ok(name.to_string());
        }
        let suffix = format!(".{name}");
        let matches: Vec<&String> = names.iter().filter(|n| n.ends_with(&suffix)).collect();
        match matches.as_slice() {
            [one] => Ok((*one).clone()),
            _ => Err(PresetError::UnknownParam {
                name: name.to_string(),
                valid: names,
            }),
        }
    }

    fn as_table(&self) -> Table {
        match Value::try_from(self).expect("a preset always serialises") {
            Value::Table(t) => t,
            _ => unreachable!("a struct serialises to a table"),
        }
    }
}

/// Parses `text` as a value of the same TOML type as `old`.
fn parse_like(old: &Value, text: &str) -> Result<Value, String> {
    match old {
        Value::Integer(_) => text
            .parse::<i64>()
            .map(Value::Integer)
            .map_err(|_| "expected a whole number".into()),
        Value::Float(_) => text
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .map(Value::Float)
            .ok_or_else(|| "expected a finite number".into()),
        Value::Boolean(_) => text
            .parse::<bool>()
            .map(Value::Boolean)
            .map_err(|_| "expected true or false".into()),
        Value::String(_) => Ok(Value::String(text.trim_matches('"').to_string())),
        _ => Err("this parameter cannot be set from the command line".into()),
    }
}
