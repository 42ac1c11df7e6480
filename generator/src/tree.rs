//! Building the reference's JSON tree ([`Tree`]). A rendered scene is built as the tree the
//! reference reads, so that writing and reading a case need no `serde_json` tree, no
//! conversion between the two and no second drop (together about 14 µs of a 210 µs case,
//! session 9; BENCHMARKS.md, "Generator: valid cases per second").

use std::borrow::Cow;

use reference::json::Map;
pub use reference::json::Value as Tree;

/// An object being built: members in insertion order, sorted once when it becomes a [`Tree`]
/// (a tree's object is one sorted slice, made at its exact size).
#[derive(Clone, Debug, Default)]
pub struct Obj(Vec<(Cow<'static, str>, Tree)>);

impl Obj {
    pub fn new() -> Obj {
        Obj(Vec::new())
    }

    /// Set member `key`, replacing its earlier value (as a map's `insert`: the last value is
    /// the one the object is made with).
    pub fn insert(&mut self, key: &'static str, value: Tree) {
        self.0.push((Cow::Borrowed(key), value));
    }

    /// Set every member of `other`, in its order.
    pub fn extend(&mut self, other: Obj) {
        self.0.extend(other.0);
    }
}

impl<const N: usize> From<[(&'static str, Tree); N]> for Obj {
    /// The object of fixed `members` (of a key given twice the last value wins).
    fn from(members: [(&'static str, Tree); N]) -> Obj {
        Obj(members
            .into_iter()
            .map(|(k, v)| (Cow::Borrowed(k), v))
            .collect())
    }
}

impl From<Obj> for Tree {
    fn from(obj: Obj) -> Tree {
        Tree::Object(Map::from_static(obj.0))
    }
}

/// The tree of an object of fixed `members` (of a key given twice the last value wins).
pub fn object<const N: usize>(members: [(&'static str, Tree); N]) -> Tree {
    Tree::from(Obj::from(members))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Members come out sorted by key, a key set twice keeps its last value, and the tree is
    /// the one `serde_json` builds from the same members.
    #[test]
    fn an_object_is_sorted_and_keeps_the_last_value() {
        let mut o = Obj::new();
        o.insert("type", Tree::from("box"));
        o.insert("mass", Tree::from(2.5));
        o.insert("axis", Tree::from(1_usize));
        o.insert("mass", Tree::from(3.0));
        let mut more = Obj::new();
        more.insert("axis", Tree::from(2_usize));
        more.insert("size", Tree::from([1.0, 2.0]));
        o.extend(more);
        let tree = Tree::from(o);
        let keys: Vec<&str> = tree
            .as_object()
            .map(|m| m.keys().collect())
            .unwrap_or_default();
        assert_eq!(keys, ["axis", "mass", "size", "type"]);
        assert_eq!(
            tree,
            Tree::from(
                serde_json::json!({"axis": 2, "mass": 3.0, "size": [1.0, 2.0], "type": "box"})
            )
        );
    }
}
