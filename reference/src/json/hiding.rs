//! A document tree read as typed data with the `extensions` objects of the document and of
//! its nodes seen as empty. gltf-json reads any object there as its `others` map of unknown
//! extensions, and validates nothing in it: with those objects seen as empty, the read
//! succeeds exactly when it would without, and only the unused `others` maps differ. Without
//! hiding, gltf-json copies each of them twice (serde's flatten buffer, then a `Value`) only
//! to ignore them. Hidden in the view, not emptied in the tree: the tree can be borrowed.
//! This holds as long as gltf-json is built without the features that type some extensions
//! (`KHR_lights_punctual`, `KHR_materials_variants`; `schema` tests it).

use std::sync::LazyLock;

use serde::Deserializer;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::Error;

use super::{Key, Map, MapKey, RAW_VALUE_TOKEN, Value};

/// Deserializer methods that read the value as `&Value` does.
macro_rules! forward_scalars {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.value.$method(visitor)
        }
    )*};
}

/// What an extension object is seen as.
static EMPTY_OBJECT: LazyLock<Value> = LazyLock::new(|| Value::Object(Map::default()));

/// Which `extensions` members a [`Hiding`] view hides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hide {
    /// The document: its own `extensions`, and those of the items of `nodes`.
    Document,
    /// The `nodes` array: the `extensions` of each item.
    Nodes,
    /// A node: its own `extensions`.
    Node,
}

/// `value` as a [`Deserializer`] that sees the document-level and node-level `extensions`
/// objects as empty (see the module documentation). Anything else reads as `&Value` does.
#[derive(Clone, Copy, Debug)]
pub struct Hiding<'de> {
    value: &'de Value,
    hide: Hide,
}

impl<'de> Hiding<'de> {
    /// The view of a whole glTF document.
    pub fn document(value: &'de Value) -> Hiding<'de> {
        Hiding {
            value,
            hide: Hide::Document,
        }
    }

    /// The object this view hides members of, if it is one.
    fn object(self) -> Option<&'de Map> {
        match (self.value, self.hide) {
            (Value::Object(map), Hide::Document | Hide::Node) => Some(map),
            _ => None,
        }
    }

    /// The array of nodes this view is, if it is one.
    fn nodes(self) -> Option<&'de [Value]> {
        match (self.value, self.hide) {
            (Value::Array(items), Hide::Nodes) => Some(items),
            _ => None,
        }
    }
}

/// As `&Map`'s `deserialize_any`, with members seen through [`member`].
fn visit_object<'de, V: Visitor<'de>>(
    map: &'de Map,
    hide: Hide,
    visitor: V,
) -> Result<V::Value, Error> {
    let mut access = HidingMap {
        iter: map.entries.iter(),
        value: None,
        hide,
    };
    let object = visitor.visit_map(&mut access)?;
    if access.iter.len() == 0 {
        Ok(object)
    } else {
        Err(de::Error::invalid_length(
            map.len(),
            &"fewer elements in map",
        ))
    }
}

/// As `visit_array`, each item seen as a node.
fn visit_nodes<'de, V: Visitor<'de>>(nodes: &'de [Value], visitor: V) -> Result<V::Value, Error> {
    let mut access = HidingNodes { iter: nodes.iter() };
    let seq = visitor.visit_seq(&mut access)?;
    if access.iter.len() == 0 {
        Ok(seq)
    } else {
        Err(de::Error::invalid_length(
            nodes.len(),
            &"fewer elements in array",
        ))
    }
}

impl<'de> Deserializer<'de> for Hiding<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if let Some(map) = self.object() {
            return visit_object(map, self.hide, visitor);
        }
        match self.nodes() {
            Some(nodes) => visit_nodes(nodes, visitor),
            None => self.value.deserialize_any(visitor),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.object() {
            Some(map) => visit_object(map, self.hide, visitor),
            None => self.value.deserialize_map(visitor),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.object() {
            Some(map) => visit_object(map, self.hide, visitor),
            None => self.value.deserialize_struct(name, fields, visitor),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.nodes() {
            Some(nodes) => visit_nodes(nodes, visitor),
            None => self.value.deserialize_seq(visitor),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == RAW_VALUE_TOKEN {
            return self.value.deserialize_newtype_struct(name, visitor);
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.value.deserialize_enum(name, variants, visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    // Scalars: what `&Value` reads (no extension object is a scalar).
    forward_scalars! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
        deserialize_string deserialize_bytes deserialize_byte_buf deserialize_unit
        deserialize_identifier
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.value.deserialize_unit_struct(name, visitor)
    }
}

/// The members of an object seen through a [`Hiding`] view.
struct HidingMap<'de> {
    iter: std::slice::Iter<'de, (Key, Value)>,
    value: Option<(&'de str, &'de Value)>,
    hide: Hide,
}

impl<'de> MapAccess<'de> for HidingMap<'de> {
    type Error = Error;

    fn next_key_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        match self.iter.next() {
            Some((key, value)) => {
                self.value = Some((key, value));
                seed.deserialize(MapKey { key }).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Error> {
        let Some((key, value)) = self.value.take() else {
            return Err(de::Error::custom("value is missing"));
        };
        match (key, value, self.hide) {
            ("extensions", Value::Object(_), _) => seed.deserialize(&*EMPTY_OBJECT),
            ("nodes", _, Hide::Document) => seed.deserialize(Hiding {
                value,
                hide: Hide::Nodes,
            }),
            _ => seed.deserialize(value),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// The items of `nodes`, each seen as a node.
struct HidingNodes<'de> {
    iter: std::slice::Iter<'de, Value>,
}

impl<'de> SeqAccess<'de> for HidingNodes<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        match self.iter.next() {
            Some(value) => seed
                .deserialize(Hiding {
                    value,
                    hide: Hide::Node,
                })
                .map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}
