//! The property names of glTF 2.0 and of the physics extensions the suite reads. An object key
//! that is one of them is a shared `&'static str` instead of an allocation of its own: a scene
//! has hundreds of keys and few distinct names. Found by their bytes (no UTF-8 check, no
//! allocation), they took a validation of the bench folder from 269.0 M to 249.4 M
//! instructions (callgrind, session 5). Any other key is simply allocated: the list is a
//! speed-up, never a rule.

use std::borrow::Cow;
use std::sync::OnceLock;

/// An object key.
pub(super) type Key = Cow<'static, str>;

/// The key `text`, shared when it is a known name.
pub(super) fn key(text: &str) -> Key {
    known(text).map_or_else(|| Cow::Owned(text.to_owned()), Cow::Borrowed)
}

/// The key of an owned string (kept when unknown).
pub(super) fn key_of(text: String) -> Key {
    known(&text).map_or(Cow::Owned(text), Cow::Borrowed)
}

/// Core glTF 2.0 (every property of its schema), then KHR_physics_rigid_bodies with
/// KHR_collision_shapes, OMI_physics_body, OMI_physics_shape, OMI_collider, OMI_physics_joint
/// and VRMC_constraints-1.0, and the extension names themselves.
const KNOWN: &[&str] = &[
    // glTF 2.0
    "accessors",
    "alphaCutoff",
    "alphaMode",
    "animations",
    "asset",
    "aspectRatio",
    "attributes",
    "baseColorFactor",
    "baseColorTexture",
    "buffer",
    "bufferView",
    "bufferViews",
    "buffers",
    "byteLength",
    "byteOffset",
    "byteStride",
    "camera",
    "cameras",
    "channels",
    "children",
    "componentType",
    "copyright",
    "count",
    "doubleSided",
    "emissiveFactor",
    "emissiveTexture",
    "extensions",
    "extensionsRequired",
    "extensionsUsed",
    "extras",
    "generator",
    "images",
    "index",
    "indices",
    "input",
    "interpolation",
    "inverseBindMatrices",
    "joints",
    "magFilter",
    "material",
    "materials",
    "matrix",
    "max",
    "mesh",
    "meshes",
    "metallicFactor",
    "metallicRoughnessTexture",
    "mimeType",
    "min",
    "minFilter",
    "minVersion",
    "mode",
    "name",
    "node",
    "nodes",
    "normalTexture",
    "normalized",
    "occlusionTexture",
    "orthographic",
    "output",
    "path",
    "pbrMetallicRoughness",
    "perspective",
    "primitives",
    "rotation",
    "roughnessFactor",
    "sampler",
    "samplers",
    "scale",
    "scene",
    "scenes",
    "skeleton",
    "skin",
    "skins",
    "source",
    "sparse",
    "strength",
    "target",
    "targets",
    "texCoord",
    "textures",
    "translation",
    "type",
    "uri",
    "values",
    "version",
    "weights",
    "wrapS",
    "wrapT",
    "xmag",
    "yfov",
    "ymag",
    "zfar",
    "znear",
    // Attribute semantics.
    "POSITION",
    "NORMAL",
    "TANGENT",
    "TEXCOORD_0",
    "TEXCOORD_1",
    "COLOR_0",
    "JOINTS_0",
    "WEIGHTS_0",
    // Extension names.
    "KHR_physics_rigid_bodies",
    "KHR_collision_shapes",
    "KHR_implicit_shapes",
    "OMI_physics_body",
    "OMI_physics_shape",
    "OMI_collider",
    "OMI_physics_joint",
    "VRMC_constraints-1.0",
    "VRMC_constraints",
    // KHR_physics_rigid_bodies and KHR_collision_shapes.
    "angularAxes",
    "angularVelocity",
    "box",
    "capsule",
    "centerOfMass",
    "collider",
    "collisionFilter",
    "collisionFilters",
    "collisionSystems",
    "collideWithSystems",
    "connectedNode",
    "convex",
    "cylinder",
    "damping",
    "drives",
    "dynamicFriction",
    "enableCollision",
    "frictionCombine",
    "geometry",
    "gravityFactor",
    "height",
    "inertiaDiagonal",
    "inertiaOrientation",
    "isKinematic",
    "joint",
    "limits",
    "linearAxes",
    "linearVelocity",
    "mass",
    "maxForce",
    "motion",
    "notCollideWithSystems",
    "physicsJoints",
    "physicsMaterial",
    "physicsMaterials",
    "positionTarget",
    "radius",
    "radiusBottom",
    "radiusTop",
    "restitution",
    "restitutionCombine",
    "shape",
    "shapes",
    "size",
    "sphere",
    "staticFriction",
    "stiffness",
    "trigger",
    "trimesh",
    "velocityTarget",
    "axis",
    // OMI_physics_body, OMI_physics_shape, OMI_collider, OMI_physics_joint.
    "inertiaTensor",
    "isTrigger",
    "lowerLimit",
    "nodeA",
    "nodeB",
    "upperLimit",
    "constraints",
    "hull",
    "colliders",
    // VRMC_constraints-1.0.
    "aim",
    "aimVector",
    "destinationSpace",
    "freezeAxes",
    "position",
    "sourceSpace",
    "upVector",
    "weight",
];

/// Whether two short texts (keys) are equal, without a call to `memcmp`: up to 16 bytes are
/// compared as two overlapping words (keys are rarely longer; longer ones take the slice
/// comparison). The calls were about 4% of a validation's instructions (callgrind over the
/// validate bench's folder).
#[inline]
pub fn text_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if a.len() > 16 {
        return a == b;
    }
    words(a) == words(b)
}

/// The bytes of a text of at most 16 bytes as two words that together cover them (the same
/// length gives the same covering, so equal words mean equal bytes).
#[inline]
fn words(t: &[u8]) -> (u64, u64) {
    if let (Some(head), Some(tail)) = (t.first_chunk::<8>(), t.last_chunk::<8>()) {
        return (u64::from_ne_bytes(*head), u64::from_ne_bytes(*tail));
    }
    if let (Some(head), Some(tail)) = (t.first_chunk::<4>(), t.last_chunk::<4>()) {
        return (
            u64::from(u32::from_ne_bytes(*head)),
            u64::from(u32::from_ne_bytes(*tail)),
        );
    }
    // 0 to 3 bytes, shifted in.
    (t.iter().fold(0u64, |w, &b| (w << 8) | u64::from(b)), 0)
}

/// The byte order of two texts (keys), as `a.cmp(b)`: decided by the first bytes when they
/// differ, as they mostly do between the keys of an object, without a call to `memcmp`.
#[inline]
pub fn text_cmp(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    match (a.first(), b.first()) {
        (Some(x), Some(y)) if x != y => x.cmp(y),
        _ => a.cmp(b),
    }
}

/// Slots of the lookup table: a power of two, more than twice the names.
const SLOTS: usize = 1024;

/// A hash of the length and the first and last 8 bytes (zero-padded): names differ there.
fn slot(text: &[u8]) -> usize {
    let (head, tail) = match (text.first_chunk::<8>(), text.last_chunk::<8>()) {
        (Some(head), Some(tail)) => (u64::from_le_bytes(*head), u64::from_le_bytes(*tail)),
        // Shorter: the bytes shifted in (a copy of a variable length is a call).
        _ => {
            let word = text
                .iter()
                .rev()
                .fold(0u64, |w, &b| (w << 8) | u64::from(b));
            (word, word)
        }
    };
    let h = (head ^ tail.rotate_left(29) ^ (text.len() as u64).wrapping_mul(0x2545_f491_4f6c_dd1d))
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (h >> (64 - SLOTS.trailing_zeros())) as usize
}

/// Open addressing over [`KNOWN`] (index + 1; 0 is an empty slot), built on first use.
fn table() -> &'static [u16; SLOTS] {
    static TABLE: OnceLock<[u16; SLOTS]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [0u16; SLOTS];
        for (i, name) in KNOWN.iter().enumerate() {
            let mut s = slot(name.as_bytes());
            while table[s] != 0 {
                if KNOWN[usize::from(table[s] - 1)] == *name {
                    break;
                }
                s = (s + 1) % SLOTS;
            }
            table[s] = (i + 1) as u16;
        }
        table
    })
}

/// The key whose text is `bytes` when it is a known name: no UTF-8 check needed then.
pub(super) fn known_bytes(bytes: &[u8]) -> Option<Key> {
    known_name(bytes).map(Cow::Borrowed)
}

/// The static copy of `text` when it is a known name.
fn known(text: &str) -> Option<&'static str> {
    known_name(text.as_bytes())
}

fn known_name(text: &[u8]) -> Option<&'static str> {
    let table = table();
    let mut s = slot(text);
    loop {
        let name = KNOWN[usize::from(table[s].checked_sub(1)?)];
        if text_eq(name.as_bytes(), text) {
            return Some(name);
        }
        s = (s + 1) % SLOTS;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name is found (as the static string), anything else is not: near misses, case,
    /// prefixes, the empty key.
    #[test]
    fn every_name_and_nothing_else_is_known() {
        for name in KNOWN {
            assert_eq!(known(name), Some(*name));
            assert!(matches!(key(name), Cow::Borrowed(n) if n == *name));
            assert!(matches!(key_of(name.to_string()), Cow::Borrowed(n) if n == *name));
            for other in [
                format!("{name}x"),
                name[1..].to_owned(),
                name.to_uppercase(),
                format!(" {name}"),
            ] {
                if !KNOWN.contains(&other.as_str()) {
                    assert_eq!(known(&other), None, "{other}");
                    assert!(matches!(key(&other), Cow::Owned(o) if o == other));
                }
            }
        }
        let mut sorted = KNOWN.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), KNOWN.len(), "a name listed twice");
        assert_eq!(known(""), None);
        assert_eq!(known("\u{e9}"), None);
    }

    proptest::proptest! {
        /// `text_eq` is byte equality: on any two byte strings, on a string and itself, and on
        /// equal-length strings that differ in one byte (every position, each word's edge
        /// included).
        #[test]
        fn text_eq_is_byte_equality(
            a in proptest::collection::vec(proptest::num::u8::ANY, 0..24),
            b in proptest::collection::vec(proptest::num::u8::ANY, 0..24),
            flip in proptest::num::u8::ANY,
        ) {
            proptest::prop_assert_eq!(text_eq(&a, &b), a == b);
            proptest::prop_assert!(text_eq(&a, &a.clone()));
            for i in 0..a.len() {
                let mut c = a.clone();
                c[i] ^= flip | 1;
                proptest::prop_assert!(!text_eq(&a, &c), "differs at {}", i);
            }
            // Different lengths whose words could match: zero bytes added at either end.
            for pad in 1..=8 {
                let zeros = vec![0u8; pad];
                proptest::prop_assert!(!text_eq(&a, &[&a[..], &zeros[..]].concat()));
                proptest::prop_assert!(!text_eq(&a, &[&zeros[..], &a[..]].concat()));
            }
        }
    }

    proptest::proptest! {
        /// `text_cmp` is byte order, on any two byte strings and on strings that share a
        /// prefix (one a prefix of the other included).
        #[test]
        fn text_cmp_is_byte_order(
            a in proptest::collection::vec(proptest::sample::select(vec![0u8, 1, b'a', b'b', 0xff]), 0..12),
            b in proptest::collection::vec(proptest::sample::select(vec![0u8, 1, b'a', b'b', 0xff]), 0..12),
            cut in 0usize..12,
        ) {
            proptest::prop_assert_eq!(text_cmp(&a, &b), a.cmp(&b));
            let head = &a[..cut.min(a.len())];
            proptest::prop_assert_eq!(text_cmp(head, &a), head.cmp(&a[..]));
            proptest::prop_assert_eq!(text_cmp(&a, head), a[..].cmp(head));
        }
    }

    /// The table leaves room: probes stay short (at most 4 slots for any name).
    #[test]
    fn probes_are_short() {
        let table = table();
        for name in KNOWN {
            let start = slot(name.as_bytes());
            let probes = (0..SLOTS)
                .position(|d| {
                    let i = table[(start + d) % SLOTS];
                    i != 0 && KNOWN[usize::from(i - 1)] == *name
                })
                .expect("found");
            assert!(probes < 4, "{name}: {probes}");
        }
    }
}
