//! Rust names for shader files and entry points in the generated module.

/// `name` as a snake_case Rust identifier: `CSMain` → `cs_main`, `Compact` → `compact`,
/// `blur-5x5` → `blur_5x5`; a leading digit gets `_` in front and a Rust keyword gets `_`
/// after it.
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let previous = i.checked_sub(1).and_then(|p| chars.get(p));
            let next = chars.get(i + 1);
            let starts_word = match previous {
                Some(p) if p.is_ascii_lowercase() || p.is_ascii_digit() => true,
                Some(p) if p.is_ascii_uppercase() => next.is_some_and(|n| n.is_ascii_lowercase()),
                _ => false,
            };
            if starts_word && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let trimmed = out.trim_matches('_');
    let mut out = if trimmed.is_empty() {
        "shader".to_string()
    } else {
        trimmed.to_string()
    };
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if is_keyword(&out) {
        out.push('_');
    }
    out
}

fn is_keyword(name: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum",
        "extern", "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod",
        "move", "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait",
        "true", "type", "union", "unsafe", "use", "where", "while", "abstract", "become", "box",
        "do", "final", "macro", "override", "priv", "try", "typeof", "unsized", "virtual", "yield",
    ];
    KEYWORDS.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hlsl_names_become_rust_module_names() {
        assert_eq!(snake_case("CSMain"), "cs_main");
        assert_eq!(snake_case("Compact"), "compact");
        assert_eq!(snake_case("ParallelSortCS"), "parallel_sort_cs");
        assert_eq!(snake_case("FPS_Count"), "fps_count");
        assert_eq!(snake_case("blur-5x5"), "blur_5x5");
        assert_eq!(snake_case("main"), "main");
        assert_eq!(snake_case("VSMain2"), "vs_main2");
        assert_eq!(snake_case("2pass"), "_2pass");
        assert_eq!(snake_case("type"), "type_");
        assert_eq!(snake_case("---"), "shader");
    }
}
