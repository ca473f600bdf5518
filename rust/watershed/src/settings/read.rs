//! One world object read into [`WorldSettings`] through the key table, and its ranges
//! checked: every problem becomes one [`ConfigError`] naming the world and the key.

use super::keys::{in_range, KeyKind, KeySpec, KeyValue, KEYS};
use super::{kind, short, ConfigError, ConfigErrors, LatLon, LookFamily, Num, Rgb, WorldSettings};
use serde_json::{Map, Value};

/// The known key closest to `unknown` by edit distance (ties: the earlier key).
///
/// # Complexity
/// O(key length) with the length capped at 64 characters: no known key is near one longer.
pub fn closest_key(unknown: &str) -> &'static str {
    let unknown = match unknown.char_indices().nth(64) {
        Some((end, _)) => &unknown[..end],
        None => unknown,
    };
    KEYS.iter()
        .map(|k| (strsim::levenshtein(unknown, k.name), k.name))
        .min_by_key(|(d, _)| *d)
        .map_or("name", |(_, n)| n)
}

/// Reads typed values out of one world object, collecting an error for each bad one.
struct Reader<'a> {
    object: &'a Map<String, Value>,
    label: String,
    path: &'a str,
    errors: Vec<ConfigError>,
}

impl Reader<'_> {
    fn fail(&mut self, key: &str, message: String) {
        self.errors.push(ConfigError {
            path: format!("{}.{key}", self.path),
            message: format!("{} ({}.{key}): {message}", self.label, self.path),
        });
    }

    fn get(&mut self, key: &str) -> Option<&Value> {
        let value = self.object.get(key);
        if value.is_none() {
            self.fail(key, format!("missing key '{key}'"));
        }
        value
    }

    fn number(&mut self, key: &str) -> f64 {
        match self.get(key).map(|v| (v.as_f64(), kind(v))) {
            Some((Some(x), _)) => x,
            Some((None, got)) => {
                self.fail(key, format!("expected a number, got {got}"));
                f64::NAN
            }
            None => f64::NAN,
        }
    }

    fn boolean(&mut self, key: &str) -> bool {
        match self.get(key).map(|v| (v.as_bool(), kind(v))) {
            Some((Some(b), _)) => b,
            Some((None, got)) => {
                self.fail(key, format!("expected true or false, got {got}"));
                false
            }
            None => false,
        }
    }

    fn string(&mut self, key: &str) -> Option<String> {
        match self.get(key).map(|v| (v.as_str().map(str::to_owned), kind(v))) {
            Some((Some(s), _)) => Some(s),
            Some((None, got)) => {
                self.fail(key, format!("expected a string, got {got}"));
                None
            }
            None => None,
        }
    }

    fn color(&mut self, key: &str) -> Rgb {
        let text = self.string(key);
        match text.as_deref().map(|t| (Rgb::parse(t), t)) {
            Some((Some(c), _)) => c,
            Some((None, t)) => {
                self.fail(key, format!("expected a colour \"#rrggbb\", got \"{}\"", short(t)));
                Rgb([0; 3])
            }
            None => Rgb([0; 3]),
        }
    }

    fn unsigned(&mut self, key: &str) -> u64 {
        match self.get(key).map(|v| (v.as_u64(), v.to_string())) {
            Some((Some(s), _)) => s,
            Some((None, got)) => {
                self.fail(
                    key,
                    format!("expected a whole number in 0..=18446744073709551615, got {}", short(&got)),
                );
                0
            }
            None => 0,
        }
    }

    fn lat_lon(&mut self, key: &str) -> Option<LatLon> {
        let value = self.get(key)?.clone();
        match value {
            Value::Null => None,
            Value::Object(o) => {
                for k in o.keys().filter(|k| *k != "lat_deg" && *k != "lon_deg") {
                    self.fail(
                        key,
                        format!("unknown key '{}' in a place; expected lat_deg and lon_deg", short(k)),
                    );
                }
                let mut part = |name: &str| match o.get(name) {
                    Some(v) if v.is_number() => v.as_f64().unwrap_or(f64::NAN),
                    Some(v) => {
                        self.fail(&format!("{key}.{name}"), format!("expected a number, got {}", kind(v)));
                        f64::NAN
                    }
                    None => {
                        self.fail(&format!("{key}.{name}"), format!("missing key '{name}'"));
                        f64::NAN
                    }
                };
                let lat_deg = part("lat_deg");
                let lon_deg = part("lon_deg");
                Some(LatLon { lat_deg, lon_deg })
            }
            other => {
                self.fail(
                    key,
                    format!("expected {{\"lat_deg\": .., \"lon_deg\": ..}} or null, got {}", kind(&other)),
                );
                None
            }
        }
    }
}

impl Reader<'_> {
    /// The key's value as written, or the kind's blank value (NaN, 0, empty) after an error.
    fn read(&mut self, spec: &KeySpec) -> KeyValue {
        let key = spec.name;
        match spec.kind {
            KeyKind::Name => KeyValue::Name(self.string(key).unwrap_or_default()),
            KeyKind::Seed => KeyValue::Seed(self.unsigned(key)),
            KeyKind::Count { .. } => {
                KeyValue::Count(usize::try_from(self.unsigned(key)).unwrap_or(usize::MAX))
            }
            KeyKind::Number { .. } => KeyValue::Number(self.number(key)),
            KeyKind::Switch => KeyValue::Switch(self.boolean(key)),
            KeyKind::Colour => KeyValue::Colour(self.color(key)),
            KeyKind::Family => KeyValue::Family(self.family(key)),
            KeyKind::Place => KeyValue::Place(self.lat_lon(key)),
        }
    }

    fn family(&mut self, key: &str) -> LookFamily {
        let name = self.string(key);
        match name.as_deref() {
            None => LookFamily::Temperate,
            Some(n) => match LookFamily::ALL.iter().find(|(_, name)| *name == n) {
                Some((f, _)) => *f,
                None => {
                    let names: Vec<&str> = LookFamily::ALL.iter().map(|(_, n)| *n).collect();
                    self.fail(key, format!("expected one of {}, got \"{}\"", names.join(", "), short(n)));
                    LookFamily::Temperate
                }
            },
        }
    }
}

impl WorldSettings {
    /// Reads one world object; `path` (e.g. `worlds[3]`) prefixes every error's location.
    ///
    /// # Errors
    /// Every problem in the object: unknown keys (with the closest known key), missing keys,
    /// wrong types and every [`WorldSettings::validate`] failure.
    pub fn from_value(value: &Value, path: &str) -> Result<Self, ConfigErrors> {
        let Value::Object(object) = value else {
            return Err(ConfigErrors(vec![ConfigError {
                path: path.to_owned(),
                message: format!("{path}: expected a world object, got {}", kind(value)),
            }]));
        };
        let label = match object.get("name").and_then(Value::as_str) {
            Some(n) => format!("world '{}'", short(n)),
            None => format!("world {path}"),
        };
        let mut r = Reader { object, label: label.clone(), path, errors: Vec::new() };
        for k in object.keys() {
            if !KEYS.iter().any(|s| s.name == k) {
                r.errors.push(ConfigError {
                    path: format!("{path}.{k}"),
                    message: format!(
                        "{label}: unknown key '{}'; did you mean '{}'?",
                        short(k),
                        closest_key(k)
                    ),
                });
            }
        }
        let mut world = WorldSettings::default();
        for spec in KEYS {
            let value = r.read(spec);
            spec.set(&mut world, value);
        }
        let mut errors = r.errors;
        // Range checks only on values that parsed: a missing key is reported once, not twice.
        let parsed = |key: &str| {
            let at = format!("{path}.{key}");
            !errors.iter().any(|e: &ConfigError| e.path == at || e.path.starts_with(&format!("{at}.")))
        };
        let range_errors: Vec<ConfigError> = world
            .validate()
            .into_iter()
            .filter(|e| parsed(e.path.split('.').next().unwrap_or_default()))
            .map(|e| ConfigError {
                message: format!("{label} ({path}.{}): {}", e.path, e.message),
                path: format!("{path}.{}", e.path),
            })
            .collect();
        errors.extend(range_errors);
        if errors.is_empty() {
            Ok(world)
        } else {
            Err(ConfigErrors(errors))
        }
    }

    /// Checks every value's range; each error's `path` is the key (e.g. `lake_at.lat_deg`)
    /// and its `message` says the allowed range and the value found.
    pub fn validate(&self) -> Vec<ConfigError> {
        let mut errors = Vec::new();
        let mut fail = |path: String, message: String| errors.push(ConfigError { path, message });
        for spec in KEYS {
            let key = spec.name;
            match (spec.kind, spec.value(self)) {
                (KeyKind::Name, KeyValue::Name(n)) => {
                    let ok = !n.is_empty()
                        && n.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
                    if !ok {
                        fail(
                            key.into(),
                            format!("{key} must be lowercase letters, digits and '_', got \"{}\"", short(&n)),
                        );
                    }
                }
                (KeyKind::Count { min, max }, KeyValue::Count(n)) if !(min..=max).contains(&n) => {
                    fail(key.into(), format!("{key} must be within {min}..={max}, got {n}"));
                }
                (KeyKind::Number { rule: Some(rule), .. }, _) => {
                    if let Some(message) = (rule.check)(self) {
                        fail(key.into(), message);
                    }
                }
                (KeyKind::Number { min, max, .. }, KeyValue::Number(x)) if !in_range(x, min, max) => {
                    fail(
                        key.into(),
                        format!("{key} must be within {}..={}, got {}", Num(min), Num(max), Num(x)),
                    );
                }
                (KeyKind::Place, KeyValue::Place(Some(LatLon { lat_deg, lon_deg }))) => {
                    if !in_range(lat_deg, -90.0, 90.0) {
                        fail(
                            format!("{key}.lat_deg"),
                            format!("lat_deg must be within -90..=90, got {}", Num(lat_deg)),
                        );
                    }
                    if !in_range(lon_deg, -180.0, 180.0) {
                        fail(
                            format!("{key}.lon_deg"),
                            format!("lon_deg must be within -180..=180, got {}", Num(lon_deg)),
                        );
                    }
                }
                _ => {}
            }
        }
        errors
    }
}
