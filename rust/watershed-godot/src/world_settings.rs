//! `WorldSettings`: one planet's settings as an inspector-editable, savable Resource.

use crate::convert::{from_color, to_color};
use godot::prelude::*;
use watershed::{KeyValue, LatLon, LookFamily, Rgb, KEYS};

include!(concat!(env!("OUT_DIR"), "/world_settings_properties.rs"));

#[godot_api]
impl IResource for WorldSettings {
    fn on_set(&mut self, _property: StringName, _value: Variant) -> bool {
        // Any property edit: tell holders once the value is in (deferred), then let Godot set it.
        self.base_mut().call_deferred("emit_changed", &[]);
        false
    }
}

#[godot_api]
impl WorldSettings {
    /// Every problem with the current values, one message each (the same messages as
    /// `watershed check`); empty when the settings are valid.
    #[func]
    fn validate(&self) -> PackedStringArray {
        let errors: Vec<GString> =
            self.to_core().validate().iter().map(|e| GString::from(e.message.as_str())).collect();
        PackedStringArray::from(errors)
    }

    /// The settings as one `worlds.json` world object, one key a line.
    #[func]
    fn to_json(&self) -> GString {
        let value = self.to_core().to_value();
        GString::from(serde_json::to_string_pretty(&value).unwrap_or_else(|_| value.to_string()).as_str())
    }

    /// SHA-256 (hex) of the settings' canonical JSON.
    #[func]
    fn settings_digest(&self) -> GString {
        GString::from(self.to_core().digest().as_str())
    }
}

impl WorldSettings {
    /// The validated core settings, or every error message.
    pub fn snapshot(&self) -> Result<watershed::WorldSettings, String> {
        let core = self.to_core();
        let errors = core.validate();
        if errors.is_empty() {
            Ok(core)
        } else {
            Err(errors.iter().map(|e| e.message.as_str()).collect::<Vec<_>>().join("; "))
        }
    }
}

// The generated conversions between one key's value and its property (or, for a place, its
// three properties). A value of another kind gives the property's blank value; the key
// table pairs every key with one kind, so that cannot happen.

fn name_of(v: KeyValue) -> GString {
    match v {
        KeyValue::Name(s) => GString::from(s.as_str()),
        _ => GString::new(),
    }
}

/// A seed's 64 bits as Godot's signed integer.
fn seed_of(v: KeyValue) -> i64 {
    match v {
        KeyValue::Seed(n) => n as i64,
        _ => 0,
    }
}

fn count_of(v: KeyValue) -> i64 {
    match v {
        KeyValue::Count(n) => i64::try_from(n).unwrap_or(i64::MAX),
        _ => 0,
    }
}

fn number_of(v: KeyValue) -> f64 {
    match v {
        KeyValue::Number(x) => x,
        _ => f64::NAN,
    }
}

fn switch_of(v: KeyValue) -> bool {
    matches!(v, KeyValue::Switch(true))
}

fn colour_of(v: KeyValue) -> Color {
    match v {
        KeyValue::Colour(c) => to_color(c),
        _ => to_color(Rgb([0; 3])),
    }
}

/// The inspector's enum index of a look family.
fn family_index(v: KeyValue) -> i64 {
    let family = match v {
        KeyValue::Family(f) => f,
        _ => LookFamily::Temperate,
    };
    LookFamily::ALL.iter().position(|(f, _)| *f == family).unwrap_or(0) as i64
}

/// The look family at an inspector enum index (out of range: the first).
fn family_at(index: i64) -> LookFamily {
    usize::try_from(index)
        .ok()
        .and_then(|i| LookFamily::ALL.get(i))
        .map_or(LookFamily::Temperate, |(f, _)| *f)
}

/// A place's three properties: guaranteed, latitude, longitude (0 and 0 when there is none).
fn place_of(v: KeyValue) -> (bool, f64, f64) {
    match v {
        KeyValue::Place(Some(p)) => (true, p.lat_deg, p.lon_deg),
        _ => (false, 0.0, 0.0),
    }
}

fn place(guaranteed: bool, lat_deg: f64, lon_deg: f64) -> KeyValue {
    KeyValue::Place(guaranteed.then_some(LatLon { lat_deg, lon_deg }))
}
