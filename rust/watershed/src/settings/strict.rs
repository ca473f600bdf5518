//! JSON text to a [`Value`], refusing a key written twice in one object.

use super::{short, ConfigError, ConfigErrors};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::fmt;

/// Parses JSON text like `serde_json::from_str`, except that a key written twice in one
/// object is an error naming its path (serde_json would keep the last one silently).
pub(super) fn parse_strict(text: &str) -> Result<Value, ConfigErrors> {
    let repeated = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    let parsed = Strict { at: &JsonPath::Root, repeated: &repeated }.deserialize(&mut de).and_then(|v| {
        de.end()?;
        Ok(v)
    });
    parsed.map_err(|e| {
        let (path, message) = match repeated.take() {
            Some(path) => (path, e.to_string()),
            None => (String::new(), format!("not valid JSON: {e}")),
        };
        ConfigErrors(vec![ConfigError { path, message }])
    })
}

/// Where a value sits in the document, built only when an error needs it.
enum JsonPath<'a> {
    Root,
    Index(&'a JsonPath<'a>, usize),
    Key(&'a JsonPath<'a>, &'a str),
}

impl fmt::Display for JsonPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonPath::Root => Ok(()),
            JsonPath::Index(up, i) => write!(f, "{up}[{i}]"),
            JsonPath::Key(JsonPath::Root, k) => f.write_str(k),
            JsonPath::Key(up, k) => write!(f, "{up}.{k}"),
        }
    }
}

/// One JSON value read into a [`Value`], refusing repeated keys (their path goes to
/// `repeated`). serde_json's recursion limit still applies to every nested level.
struct Strict<'a> {
    at: &'a JsonPath<'a>,
    repeated: &'a RefCell<Option<String>>,
}

impl<'de> DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq
            .next_element_seed(Strict { at: &JsonPath::Index(self.at, out.len()), repeated: self.repeated })?
        {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let at = JsonPath::Key(self.at, &key);
            if out.contains_key(&key) {
                let path = at.to_string();
                let message =
                    format!("{}: key '{}' is written twice in one object", short(&path), short(&key));
                self.repeated.replace(Some(path));
                return Err(de::Error::custom(message));
            }
            let value = map.next_value_seed(Strict { at: &at, repeated: self.repeated })?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}
