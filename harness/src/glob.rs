//! Case-id patterns for `--filter` and the known-failure files: `*` matches any run of
//! characters (including `/`), `?` one character, everything else itself.

/// Whether `text` matches the glob `pattern` as a whole.
///
/// Iterative with one backtrack point (the last `*`), so the cost is O(|pattern| |text|) at
/// worst and no input can make it recurse deeply.
pub fn matches(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(&c) if c == '?' || c == t[ti] => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                // Let the last `*` swallow one more character and retry after it.
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// A `--filter`: a glob when it has `*` or `?`, else a substring of the id.
pub fn matches_or_contains(filter: &str, text: &str) -> bool {
    if filter.contains(['*', '?']) {
        matches(filter, text)
    } else {
        text.contains(filter)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn examples() {
        assert!(matches("khr/*", "khr/joint/hinge"));
        assert!(matches("khr/*/hinge", "khr/joint/limit/hinge"));
        assert!(matches("*", ""));
        assert!(matches("a?c", "abc"));
        assert!(!matches("a?c", "ac"));
        assert!(!matches("khr/*", "omi/khr/x"));
        assert!(matches("*x*y", "axbxcy"));
        assert!(!matches("*x*y", "axbxc"));
        assert!(matches("exact", "exact"));
        assert!(!matches("exact", "exactly"));
        assert!(matches_or_contains("joint", "khr/joint/hinge"));
        assert!(!matches_or_contains("joint*", "khr/joint/hinge"));
    }

    proptest! {
        /// A text matches itself, `*` matches anything, and a prefix glob matches exactly
        /// the texts starting with the prefix.
        #[test]
        fn laws(text in "[a-c/]{0,12}", prefix in "[a-c/]{0,4}") {
            prop_assert!(matches(&text, &text));
            prop_assert!(matches("*", &text));
            prop_assert_eq!(matches(&format!("{prefix}*"), &text), text.starts_with(&prefix));
            prop_assert_eq!(matches(&format!("*{prefix}*"), &text), text.contains(&prefix));
            let qs = "?".repeat(text.chars().count());
            prop_assert!(matches(&qs, &text));
        }
    }
}
