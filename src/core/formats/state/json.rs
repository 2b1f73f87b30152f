//! Typed reads of a state's JSON values, kept apart from the state's shape: each names a bad
//! value by its place (`heads[0].w_key[1]`) and says what serde would have said.

use serde_json::{Map, Value};

use crate::core::i18n::keys::formats;
use crate::core::i18n::{Arg, Msg};

use super::error::{error, StateError};
/// The field `name` of `object` (`at` its place, ending in a dot).
pub(super) fn required<'a>(
    object: &'a Map<String, Value>,
    at: &str,
    name: &str,
) -> Result<&'a Value, StateError> {
    object
        .get(name)
        .ok_or_else(|| error(format!("{at}{name}"), formats::missing))
}

/// The field `name` of `object` read by `read`, if it is there.
pub(super) fn optional<T>(
    object: &Map<String, Value>,
    at: &str,
    name: &str,
    read: fn(&Value, &str) -> Result<T, StateError>,
) -> Result<Option<T>, StateError> {
    object
        .get(name)
        .map(|v| read(v, &format!("{at}{name}")))
        .transpose()
}

/// As [`optional`], a `null` being absent too.
pub(super) fn nullable<T>(
    object: &Map<String, Value>,
    at: &str,
    name: &str,
    read: fn(&Value, &str) -> Result<T, StateError>,
) -> Result<Option<T>, StateError> {
    match object.get(name) {
        Some(Value::Null) => Ok(None),
        _ => optional(object, at, name, read),
    }
}

/// `value` as an object holding no field but `known` (`at` prefixes the field's name).
pub(super) fn fields_of<'a>(
    value: &'a Value,
    at: &str,
    known: &[&str],
) -> Result<&'a Map<String, Value>, StateError> {
    let object = value.as_object().ok_or_else(|| {
        error(
            at.trim_end_matches('.'),
            invalid_type(value, formats::object_with(known.join(", "))),
        )
    })?;
    only_known(object, at, known)?;
    Ok(object)
}

pub(super) fn only_known(
    object: &Map<String, Value>,
    at: &str,
    known: &[&str],
) -> Result<(), StateError> {
    match object.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) => Err(error(
            format!("{at}{k}"),
            formats::unknown_field(k, known.join(", ")),
        )),
        None => Ok(()),
    }
}

/// What serde would say of a value of the wrong type: `invalid type: string "x", expected …`.
pub(super) fn invalid_type(value: &Value, expected: impl Into<Msg>) -> Msg {
    let found: Arg = match value {
        // Not words: JSON's own.
        Value::Null => "null".into(),
        Value::Bool(b) => formats::json_boolean(b).into(),
        Value::Number(n) => formats::json_number(n).into(),
        Value::String(s) => formats::json_string(format!("{s:?}")).into(),
        Value::Array(_) => formats::a_list.into(),
        Value::Object(_) => formats::an_object.into(),
    };
    formats::invalid_type(found, expected.into())
}

pub(super) fn list<'a>(value: &'a Value, field: &str) -> Result<&'a Vec<Value>, StateError> {
    value
        .as_array()
        .ok_or_else(|| error(field, invalid_type(value, formats::a_list)))
}

pub(super) fn text(value: &Value, field: &str) -> Result<String, StateError> {
    value
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| error(field, invalid_type(value, formats::text)))
}

/// A list of rows of numbers (as rows of a matrix they are checked after).
pub(super) fn rows_of(value: &Value, field: &str) -> Result<Vec<Vec<f64>>, StateError> {
    list(value, field)?
        .iter()
        .enumerate()
        .map(|(i, row)| numbers_of(row, &format!("{field}[{i}]")))
        .collect()
}

/// A list of numbers, a bad one named by its place.
pub(super) fn numbers_of(value: &Value, field: &str) -> Result<Vec<f64>, StateError> {
    list(value, field)?
        .iter()
        .enumerate()
        .map(|(j, x)| {
            x.as_f64()
                .ok_or_else(|| error(format!("{field}[{j}]"), invalid_type(x, formats::a_number)))
        })
        .collect()
}
