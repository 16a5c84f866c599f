//! The module graph has no circles: read from the sources' paths (`use`
//! lines and paths in code), each module depends on the modules whose items
//! it names, and no module depends on itself through others. The layers
//! then read top to bottom (see `docs/architecture.md`).
//!
//! A path's edge goes to the module that *defines* the item: a `pub use`
//! re-export is followed to its source. A module depends on what it
//! re-exports, so a `mod.rs` that re-exports its children forms no circle
//! with them only if it defines nothing they use. Test modules
//! (`#[cfg(test)] mod tests`) may use anything and are left out, as are
//! comments and string literals.
//!
//! The workspace's crates are read as one: each crate's modules under the
//! name the front end re-exports it by (`maxconnect4_search::engine` is
//! `search::engine`), so that the layers read as before, while the
//! compiler keeps crates from naming the crates above them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module path below the crate root: `["search", "engine"]`.
type Module = Vec<String>;

/// The workspace's crates: each one's name in paths, its sources, and the
/// module its root stands for in the whole.
const CRATES: [(&str, &str, &[&str]); 7] = [
    ("maxconnect4_game", "crates/game/src", &[]),
    ("maxconnect4_io", "crates/io/src", &[]),
    ("maxconnect4_search", "crates/search/src", &["search"]),
    ("maxconnect4_contain", "crates/contain/src", &["contain"]),
    ("maxconnect4_referee", "crates/referee/src", &[]),
    ("maxconnect4_python", "crates/python/src", &["python"]),
    ("maxconnect4", "src", &[]),
];

/// The module `prefix` stands for, as a [`Module`].
fn module_of(prefix: &[&str]) -> Module {
    prefix.iter().map(|part| (*part).to_owned()).collect()
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Ident(String),
    PathSep,
    Punct(char),
}

/// The tokens of Rust source that paths are made of, without comments,
/// string and character literals.
fn tokens(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == 'r' && (next == Some('#') || next == Some('"')) && raw_string_end(&chars, i).is_some() {
            i = raw_string_end(&chars, i).unwrap_or(chars.len());
        } else if c == '"' || (c == 'b' && next == Some('"')) {
            i += if c == 'b' { 2 } else { 1 };
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c == '\'' {
            // A character literal ('a', '\n', '\'') or a lifetime ('a).
            if next == Some('\\') {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push(Token::Ident(chars[start..i].iter().collect()));
        } else if c == ':' && next == Some(':') {
            tokens.push(Token::PathSep);
            i += 2;
        } else {
            if !c.is_whitespace() {
                tokens.push(Token::Punct(c));
            }
            i += 1;
        }
    }
    tokens
}

/// Where a raw string starting at `start` (`r"…"`, `r#"…"#`) ends, if one does.
fn raw_string_end(chars: &[char], start: usize) -> Option<usize> {
    let hashes = chars[start + 1..].iter().take_while(|&&c| c == '#').count();
    if chars.get(start + 1 + hashes) != Some(&'"') {
        return None;
    }
    let mut i = start + 2 + hashes;
    while i < chars.len() {
        if chars[i] == '"' && chars[i + 1..].iter().take(hashes).filter(|&&c| c == '#').count() == hashes {
            return Some(i + 1 + hashes);
        }
        i += 1;
    }
    None
}

/// `tokens` without `#[cfg(test)]` items (the test modules).
fn without_tests(source: Vec<Token>) -> Vec<Token> {
    let tokens = source;
    let attribute = self::tokens("#[cfg(test)]");
    let mut kept = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i..].starts_with(&attribute) {
            // Skip to the end of the item: its block or its `;`.
            i += attribute.len();
            while i < tokens.len() && tokens[i] != Token::Punct('{') && tokens[i] != Token::Punct(';') {
                i += 1;
            }
            if tokens.get(i) == Some(&Token::Punct('{')) {
                let mut depth = 0;
                while i < tokens.len() {
                    match tokens[i] {
                        Token::Punct('{') => depth += 1,
                        Token::Punct('}') => depth -= 1,
                        _ => {}
                    }
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            } else {
                i += 1;
            }
        } else {
            kept.push(tokens[i].clone());
            i += 1;
        }
    }
    kept
}

/// The paths of a `use` tree (`a::{b, c::d as e}`), each with the name it
/// brings in scope.
fn use_paths(tree: &[Token], prefix: &[String], out: &mut Vec<(Vec<String>, String)>) {
    let mut path = prefix.to_vec();
    let mut i = 0;
    while i < tree.len() {
        match &tree[i] {
            Token::Ident(word) if word == "as" => {
                if let Some(Token::Ident(alias)) = tree.get(i + 1) {
                    out.push((path.clone(), alias.clone()));
                }
                return;
            }
            Token::Ident(segment) => path.push(segment.clone()),
            Token::PathSep => {}
            Token::Punct('{') => {
                // Split the group's top level at commas.
                let mut depth = 0;
                let mut start = i + 1;
                for j in i..tree.len() {
                    match tree[j] {
                        Token::Punct('{') => depth += 1,
                        Token::Punct('}') => depth -= 1,
                        Token::Punct(',') if depth == 1 => {
                            use_paths(&tree[start..j], &path, out);
                            start = j + 1;
                        }
                        _ => {}
                    }
                    if depth == 0 {
                        // Nothing after a trailing comma, as rustfmt leaves
                        // a list broken over lines.
                        if start < j {
                            use_paths(&tree[start..j], &path, out);
                        }
                        break;
                    }
                }
                return;
            }
            Token::Punct(_) => return, // `*`: a glob names no module beyond its own.
        }
        i += 1;
    }
    if let Some(last) = path.last() {
        let name = if last == "self" { path[path.len() - 2].clone() } else { last.clone() };
        if last == "self" {
            path.pop();
        }
        out.push((path, name));
    }
}

struct Crate {
    modules: BTreeMap<Module, Vec<Token>>,
    /// For each module, the module its crate's root stands for: what
    /// `crate::` names there.
    roots: BTreeMap<Module, Module>,
    /// For each module, the names it re-exports and their paths.
    reexports: BTreeMap<Module, BTreeMap<String, Vec<String>>>,
}

impl Crate {
    /// The modules of one crate's sources in `src`, its own names.
    fn modules_in(src: &Path) -> BTreeMap<Module, Vec<Token>> {
        let mut modules = BTreeMap::new();
        read_dir(src, src, &mut modules);
        // Files beside lib.rs that it does not declare are the binary's.
        let root = modules.get(&Vec::new()).cloned().unwrap_or_default();
        let declared: BTreeSet<String> = root
            .windows(2)
            .filter_map(|pair| match pair {
                [Token::Ident(word), Token::Ident(name)] if word == "mod" => Some(name.clone()),
                _ => None,
            })
            .collect();
        modules.retain(|module, _| module.first().is_none_or(|top| declared.contains(top)));
        modules
    }

    /// Every crate of the workspace, as one: the roots of crates that stand
    /// for the same module (the game's, the referee's, the front end's) are
    /// read as one module.
    fn workspace() -> Crate {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut modules: BTreeMap<Module, Vec<Token>> = BTreeMap::new();
        let mut roots = BTreeMap::new();
        for (_, src, prefix) in CRATES {
            let prefix = module_of(prefix);
            for (module, tokens) in Crate::modules_in(&root.join(src)) {
                let whole: Module = prefix.iter().cloned().chain(module).collect();
                roots.insert(whole.clone(), prefix.clone());
                modules.entry(whole).or_default().extend(tokens);
            }
        }
        let mut library = Crate::new(modules);
        library.roots = roots;
        library
    }

    fn new(modules: BTreeMap<Module, Vec<Token>>) -> Crate {
        let mut reexports: BTreeMap<Module, BTreeMap<String, Vec<String>>> = BTreeMap::new();
        for (module, tokens) in &modules {
            for (is_pub, tree) in use_statements(tokens) {
                if is_pub {
                    let mut paths = Vec::new();
                    use_paths(&tree, &[], &mut paths);
                    for (path, name) in paths {
                        reexports.entry(module.clone()).or_default().insert(name, path);
                    }
                }
            }
        }
        Crate { modules, roots: BTreeMap::new(), reexports }
    }

    /// The module defining what `path` names, seen from `from`; `None` for
    /// a path outside the crate.
    fn resolve(&self, from: &Module, path: &[String], depth: usize) -> Option<Module> {
        let (mut module, rest): (Module, &[String]) = match path.first().map(String::as_str) {
            Some("crate") => (self.roots.get(from).cloned().unwrap_or_default(), &path[1..]),
            Some(first) if CRATES.iter().any(|(name, _, _)| *name == first) => {
                let (_, _, prefix) = CRATES.iter().find(|(name, _, _)| *name == first).expect("found");
                (module_of(prefix), &path[1..])
            }
            Some("self") => (from.clone(), &path[1..]),
            Some("super") => {
                let supers = path.iter().take_while(|segment| *segment == "super").count();
                (from[..from.len().saturating_sub(supers)].to_vec(), &path[supers..])
            }
            Some(first) if self.modules.contains_key(&child(from, first)) => (from.clone(), path),
            _ => return None,
        };
        let mut rest = rest;
        while let Some(segment) = rest.first() {
            let next = child(&module, segment);
            if !self.modules.contains_key(&next) {
                break;
            }
            module = next;
            rest = &rest[1..];
        }
        if let (Some(name), true) = (rest.first(), depth < 8) {
            if let Some(source) = self.reexports.get(&module).and_then(|names| names.get(name)) {
                if let Some(defining) = self.resolve(&module, source, depth + 1) {
                    return Some(defining);
                }
            }
        }
        Some(module)
    }

    /// Each module's dependencies on other modules of the crate.
    fn edges(&self) -> BTreeMap<Module, BTreeSet<Module>> {
        let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
        for (module, tokens) in &self.modules {
            let mut paths = Vec::new();
            let statements = use_statements(tokens);
            for (_, tree) in &statements {
                let mut found = Vec::new();
                use_paths(tree, &[], &mut found);
                paths.extend(found.into_iter().map(|(path, _)| path));
            }
            paths.extend(paths_in_code(tokens));
            for path in paths {
                if let Some(target) = self.resolve(module, &path, 0) {
                    if &target != module && !target.is_empty() {
                        edges.entry(module.clone()).or_default().insert(target);
                    }
                }
            }
        }
        edges
    }
}

fn child(module: &Module, name: &str) -> Module {
    let mut child = module.clone();
    child.push(name.to_owned());
    child
}

fn read_dir(root: &Path, dir: &Path, modules: &mut BTreeMap<Module, Vec<Token>>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            read_dir(root, &path, modules);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            let relative = path.strip_prefix(root).unwrap().with_extension("");
            let mut module: Module = relative.iter().map(|part| part.to_string_lossy().into_owned()).collect();
            if module.last().is_some_and(|last| last == "mod") {
                module.pop();
            }
            if module == ["lib"] {
                module.clear();
            }
            if module == ["main"] {
                // The binary: its own crate, above the library.
                continue;
            }
            let source = std::fs::read_to_string(&path).unwrap();
            modules.insert(module, without_tests(tokens(&source)));
        }
    }
}

/// For each token, how many inline modules (`mod name { ... }`) enclose it
/// within its file.
fn inline_depths(tokens: &[Token]) -> Vec<usize> {
    let mut depths = Vec::with_capacity(tokens.len());
    // The brace depth inside each open inline module.
    let mut open: Vec<usize> = Vec::new();
    let mut braces = 0;
    for (i, token) in tokens.iter().enumerate() {
        match token {
            Token::Punct('{') => {
                braces += 1;
                let opens_module = i >= 2
                    && tokens[i - 2] == Token::Ident("mod".to_owned())
                    && matches!(tokens[i - 1], Token::Ident(_));
                if opens_module {
                    open.push(braces);
                }
            }
            Token::Punct('}') => {
                if open.last() == Some(&braces) {
                    open.pop();
                }
                braces -= 1;
            }
            _ => {}
        }
        depths.push(open.len());
    }
    depths
}

/// The `use` statements of a module: whether each is `pub` (in any form),
/// and its tree.
fn use_statements(tokens: &[Token]) -> Vec<(bool, Vec<Token>)> {
    let depths = inline_depths(tokens);
    let mut statements = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        if *token != Token::Ident("use".to_owned()) {
            continue;
        }
        let is_pub = match i.checked_sub(1).map(|j| &tokens[j]) {
            Some(Token::Ident(word)) => word == "pub",
            // `pub(crate) use`
            Some(Token::Punct(')')) => tokens[..i].iter().rev().take(5).any(|t| *t == Token::Ident("pub".to_owned())),
            _ => false,
        };
        let end = tokens[i..].iter().position(|t| *t == Token::Punct(';')).map_or(tokens.len(), |n| i + n);
        let mut tree = tokens[i + 1..end].to_vec();
        // In an inline module, its first `super`s name the file's module.
        for _ in 0..depths[i] {
            if tree.first() == Some(&Token::Ident("super".to_owned())) {
                tree[0] = Token::Ident("self".to_owned());
                if tree.get(2) == Some(&Token::Ident("super".to_owned())) {
                    tree.drain(0..2);
                }
            }
        }
        statements.push((is_pub, tree));
    }
    statements
}

/// Paths written in code (`a::b::c`), outside `use` statements.
fn paths_in_code(tokens: &[Token]) -> Vec<Vec<String>> {
    let depths = inline_depths(tokens);
    let mut paths = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == Token::Ident("use".to_owned()) {
            while i < tokens.len() && tokens[i] != Token::Punct(';') {
                i += 1;
            }
            continue;
        }
        let preceded_by_sep = i > 0 && tokens[i - 1] == Token::PathSep;
        if let (Token::Ident(first), false) = (&tokens[i], preceded_by_sep) {
            let mut path = vec![first.clone()];
            let mut j = i + 1;
            while tokens.get(j) == Some(&Token::PathSep) {
                match tokens.get(j + 1) {
                    Some(Token::Ident(segment)) => path.push(segment.clone()),
                    _ => break,
                }
                j += 2;
            }
            if path.len() > 1 {
                // In an inline module, its first `super`s name the file's module.
                let supers = path.iter().take_while(|segment| *segment == "super").count().min(depths[i]);
                if supers > 0 {
                    path.splice(0..supers, ["self".to_owned()]);
                }
                paths.push(path);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    paths
}

/// The circles of `edges`: strongly connected groups of two or more modules.
fn circles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    // Two modules are in one circle when each reaches the other.
    let reach = |from: &Module| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(module) = stack.pop() {
            for next in edges.get(&module).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&Module, BTreeSet<Module>> = edges.keys().map(|module| (module, reach(module))).collect();
    let mut placed = BTreeSet::new();
    let mut found = Vec::new();
    for (module, reaches) in &reached {
        if placed.contains(*module) || !reaches.contains(*module) {
            continue;
        }
        let circle: Vec<Module> = reaches
            .iter()
            .filter(|other| reached.get(other).is_some_and(|back| back.contains(*module)))
            .cloned()
            .collect();
        placed.extend(circle.iter().cloned());
        found.push(circle);
    }
    found
}

fn describe(circle: &[Module], edges: &BTreeMap<Module, BTreeSet<Module>>) -> String {
    let name = |module: &Module| if module.is_empty() { "crate".to_owned() } else { module.join("::") };
    let mut lines = vec![circle.iter().map(name).collect::<Vec<_>>().join(", ")];
    for from in circle {
        for to in edges.get(from).into_iter().flatten().filter(|to| circle.contains(to)) {
            lines.push(format!("    {} -> {}", name(from), name(to)));
        }
    }
    lines.join("\n")
}

#[test]
fn the_library_has_no_module_circles() {
    let library = Crate::workspace();
    let edges = library.edges();
    let found: Vec<String> = circles(&edges).iter().map(|circle| describe(circle, &edges)).collect();
    assert!(found.is_empty(), "modules that depend on each other:\n{}", found.join("\n"));
}

#[test]
fn the_checker_finds_a_circle_through_a_re_export_and_ignores_a_facade() {
    let mut modules = BTreeMap::new();
    let module = |path: &str| path.split("::").map(str::to_owned).collect::<Module>();
    // `a` re-exports `a::b`'s item; `a::c` uses it through `a`: no circle.
    modules.insert(module("a"), tokens("mod b; mod c; pub use b::Thing;"));
    modules.insert(module("a::b"), tokens("pub struct Thing;"));
    // (A list with a trailing comma, as rustfmt breaks a long one, names
    // nothing more.)
    modules.insert(module("a::c"), tokens("use super::{\n    Thing,\n}; // crate::d::X in a comment\n"));
    // `d` and `e` name each other's items, one in code, one in a `use`.
    modules.insert(module("d"), tokens("pub struct X; fn f() -> crate::e::Y { todo!() }"));
    modules.insert(module("e"), tokens("use crate::d::X; pub struct Y; const S: &str = \"crate::a::c\";"));
    // `f`'s inline module names `f`'s own item through `super`: no edge to `crate`'s root.
    modules.insert(module("f"), tokens("pub struct Z; mod inner { use super::Z; fn g() -> super::Z { todo!() } }"));
    let edges = Crate::new(modules).edges();
    assert_eq!(circles(&edges), vec![vec![module("d"), module("e")]]);
    assert_eq!(edges.get(&module("a::c")), Some(&BTreeSet::from([module("a::b")])));
    assert_eq!(edges.get(&module("f")), None);
}

/// Every Rust file under `dir`, recursively.
fn rust_files(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            files.push(path);
        }
    }
}

/// A file a reader can hold in mind: none of the program's or the tests'
/// sources is over 900 lines (split a longer one by what its parts do).
#[test]
fn no_source_file_is_over_900_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "crates", "tests", "examples"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "the sources are found: {files:?}");
    let long: Vec<String> = files
        .iter()
        .filter_map(|file| {
            let lines = std::fs::read_to_string(file).unwrap().lines().count();
            (lines > 900).then(|| format!("{} ({lines} lines)", file.strip_prefix(root).unwrap().display()))
        })
        .collect();
    assert!(long.is_empty(), "files over 900 lines: {long:?}");
}

/// The paths from modules under one of `from` (top-level names) to modules
/// under one of `to`, as `a::b -> c::d`; fails unless some module under
/// `from` is read at all.
fn names_between(from: &[&str], to: &[&str]) -> Vec<String> {
    let library = Crate::workspace();
    let is = |module: &Module, names: &[&str]| module.first().is_some_and(|top| names.contains(&top.as_str()));
    let edges = library.edges();
    assert!(edges.keys().any(|module| is(module, from)), "the modules of {from:?} are read");
    edges
        .iter()
        .filter(|(module, _)| is(module, from))
        .flat_map(|(module, named)| {
            named
                .iter()
                .filter(|named| is(named, to))
                .map(move |named| format!("{} -> {}", module.join("::"), named.join("::")))
        })
        .collect()
}

/// Containment serves the referee and the report alike, at the services
/// layer: none of its modules names a front end.
#[test]
fn containment_names_no_front_end() {
    let wrong = names_between(&["contain"], &["modes", "report", "referee", "serve"]);
    assert!(wrong.is_empty(), "contain names front ends: {wrong:?}");
}

/// The library says what went wrong as a kind a caller can match on, not
/// as words alone: no `Result<_, String>` and no `anyhow`, which stays in
/// the command line (`main.rs` and `cli/`, the binary's own).
#[test]
fn the_library_returns_errors_as_kinds() {
    let code = library_code();
    let library = code.iter().filter(|(name, _)| name != "main.rs" && !name.starts_with("cli/"));
    let mut wrong = Vec::new();
    for (name, code) in library {
        if code.contains(&Token::Ident("anyhow".to_owned())) {
            wrong.push(format!("{name} names anyhow"));
        }
        if results_of_strings(code) > 0 {
            wrong.push(format!("{name} has a Result whose error is a String"));
        }
    }
    assert!(code.len() > 50, "the sources are found");
    assert!(wrong.is_empty(), "errors in words only: {wrong:?}");
}

/// How many `Result<T, String>` there are among `code`'s tokens, `T` any
/// type (its own `<...>` and `,` nested).
fn results_of_strings(code: &[Token]) -> usize {
    let string = Token::Ident("String".to_owned());
    let mut found = 0;
    for start in 0..code.len() {
        if code[start] != Token::Ident("Result".to_owned()) || code.get(start + 1) != Some(&Token::Punct('<')) {
            continue;
        }
        let mut depth = 0;
        for (at, token) in code.iter().enumerate().skip(start + 1) {
            match token {
                Token::Punct('<') => depth += 1,
                Token::Punct('>') if depth == 1 => {
                    let tail = &code[at.saturating_sub(2)..at];
                    found += usize::from(tail == [Token::Punct(','), string.clone()]);
                    break;
                }
                Token::Punct('>') => depth -= 1,
                _ => {}
            }
        }
    }
    found
}

#[test]
fn the_checker_finds_a_result_of_a_string_however_nested() {
    let count = |source: &str| results_of_strings(&tokens(source));
    assert_eq!(count("fn f() -> Result<Vec<Option<u8>>, String> { }"), 1);
    assert_eq!(count("fn f() -> Result<(), String> {} fn g() -> io::Result<String> {}"), 1);
    assert_eq!(count("struct S { built: Option<Result<PathBuf, String>> }"), 1);
    assert_eq!(count("fn f() -> Result<String, Error> {} // Result<(), String>"), 0);
    assert_eq!(count("fn f() -> Result<HashMap<String, String>, Fault> {}"), 0);
}

/// The report runs programs as the referee does through what both share
/// below them (`contain`, `protocol::one_move`), never through the
/// referee: none of its modules names one of the referee's.
#[test]
fn the_report_names_nothing_of_the_referee() {
    let wrong = names_between(&["report"], &["referee"]);
    assert!(wrong.is_empty(), "the report names the referee: {wrong:?}");
}

/// The Rust files of every crate with their code tokens, tests left out,
/// each named by its path in the whole (`contain/home.rs` for the file
/// `home.rs` of `crates/contain/src`).
fn library_code() -> Vec<(String, Vec<Token>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut code = Vec::new();
    for (_, src, prefix) in CRATES {
        let src = root.join(src);
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for file in files {
            let relative = file.strip_prefix(&src).unwrap();
            let name = prefix.iter().map(Path::new).fold(std::path::PathBuf::new(), |path, part| path.join(part));
            let name = name.join(relative).display().to_string();
            code.push((name, without_tests(tokens(&std::fs::read_to_string(&file).unwrap()))));
        }
    }
    code
}

/// Whether `code` holds the path `words` (`["fs", "read"]` for `fs::read`).
fn holds_path(code: &[Token], words: &[&str]) -> bool {
    let path: Vec<Token> = words
        .iter()
        .enumerate()
        .flat_map(|(index, word)| {
            let separator = (index > 0).then_some(Token::PathSep);
            separator.into_iter().chain([Token::Ident((*word).to_owned())])
        })
        .collect();
    code.windows(path.len()).any(|window| window == path.as_slice())
}

/// Outside the sandbox the referee runs no program in a folder a
/// submission controls (docs/referee.md, "What a submission can and cannot
/// do"): every program is started in `contain`, where a player goes into
/// the sandbox and the referee's own helpers (bwrap's probe, a version
/// manager asked in `/`) touch no submission. Nothing else names a
/// `Command`: `report` once ran git in a student's checkout, which ran
/// the checkout's `core.fsmonitor` as root.
#[test]
fn only_containment_starts_programs() {
    let code = library_code();
    assert!(code.len() > 50, "the sources are read");
    // A process's `Command`, named by its path or brought in by a `use`.
    let starts = |code: &[Token]| {
        let mut used = Vec::new();
        for (_, tree) in use_statements(code) {
            use_paths(&tree, &[], &mut used);
        }
        holds_path(code, &["process", "Command"])
            || used.iter().any(|(path, _)| path.ends_with(&["process".to_owned(), "Command".to_owned()]))
    };
    let starting: Vec<&String> = code
        .iter()
        .filter(|(_, code)| starts(code))
        .map(|(name, _)| name)
        .filter(|name| !name.starts_with("contain/"))
        .collect();
    assert!(starts(&tokens("use std::process::{Command, Stdio};")) && starts(&tokens("std::process::Command::new(x)")));
    assert!(starting.is_empty(), "programs started outside contain: {starting:?}");
}

/// The modules that read a submission's files read them with their own
/// bounded reads, never whole (`fs::read`, `fs::read_to_string`): a 1 GiB
/// sparse `zbig.py` read whole took the referee to 1.06 GB.
#[test]
fn a_submissions_files_are_never_read_whole() {
    let readers = ["referee/playing/class.rs", "contain/home.rs", "contain/interpreter.rs", "report/version.rs"];
    let code = library_code();
    for reader in readers {
        let (_, tokens) = code.iter().find(|(name, _)| name == reader).unwrap_or_else(|| panic!("{reader} is read"));
        for whole in [["fs", "read"], ["fs", "read_to_string"]] {
            assert!(!holds_path(tokens, &whole), "{reader} reads a file whole with {}", whole.join("::"));
        }
    }
    assert!(holds_path(&tokens("let x = std::fs::read(path);"), &["fs", "read"]), "the checker sees a read");
}

/// The library crates print nothing: what they have to say (a warning, a
/// game's progress) goes to a writer their caller gives, so that a test or
/// another front end keeps it. Only the front end, `src/`, names standard
/// output or error.
#[test]
fn the_library_crates_print_nothing() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let prints = |code: &[Token]| {
        let macros = ["println", "eprintln", "print", "eprint", "dbg"];
        let macro_call = code
            .windows(2)
            .any(|pair| matches!(pair, [Token::Ident(name), Token::Punct('!')] if macros.contains(&name.as_str())));
        macro_call || holds_path(code, &["io", "stdout"]) || holds_path(code, &["io", "stderr"])
    };
    let mut printing = Vec::new();
    let mut read = 0;
    for (name, src, _) in CRATES.iter().filter(|(name, _, _)| *name != "maxconnect4") {
        let mut files = Vec::new();
        rust_files(&root.join(src), &mut files);
        for file in files {
            read += 1;
            if prints(&without_tests(tokens(&std::fs::read_to_string(&file).unwrap()))) {
                printing.push(format!("{name}: {}", file.strip_prefix(root).unwrap().display()));
            }
        }
    }
    assert!(read > 50, "the library crates are read");
    assert!(prints(&tokens("fn f() { eprintln!(\"x\"); }")) && prints(&tokens("let e = std::io::stderr();")));
    assert!(printing.is_empty(), "library files that print: {printing:?}");
}
