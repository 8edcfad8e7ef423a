//! A scope of taken names, as the text backends' namers keep them: the part of naming
//! that is the same in every text target (how each target spells a name stays in its
//! writer).

use std::borrow::Cow;
use std::hash::Hasher;
use std::rc::Rc;

use hashbrown::hash_table::{Entry, HashTable};
use rustc_hash::FxHasher;

use super::{first_free_numbered, Name};

/// A set of names, looked up by a hash computed once per name tried: taking a free name
/// looks it up in each enclosing scope and inserts it here with that one hash (std's
/// sets hash the text again for every lookup).
#[derive(Clone, Debug, Default)]
pub struct Names<'a> {
    table: HashTable<Name<'a>>,
    /// Room for the candidates of a numbered name ([`first_free_numbered`]), kept with
    /// the set so that it goes from function to function with [`FunctionLists`].
    candidate: String,
}

/// The hash of `text` in every [`Names`].
#[inline]
fn hash_of(text: &str) -> u64 {
    let mut hasher = FxHasher::default();
    hasher.write(text.as_bytes());
    hasher.finish()
}

impl<'a> Names<'a> {
    /// Whether the set holds no name.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// Empties the set, keeping its room.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Whether the set holds `text`, whose hash is `hash`.
    #[inline]
    fn contains(&self, hash: u64, text: &str) -> bool {
        self.table.find(hash, |name| **name == *text).is_some()
    }

    /// Adds `name`, whose hash is `hash`, unless the set holds it already; whether it
    /// was added.
    #[inline]
    fn insert(&mut self, hash: u64, name: &Name<'a>) -> bool {
        match self
            .table
            .entry(hash, |held| **held == **name, |held| hash_of(held))
        {
            Entry::Occupied(_) => false,
            Entry::Vacant(vacant) => {
                vacant.insert(name.clone());
                true
            }
        }
    }

    /// Adds every name of `other` that the set doesn't hold yet.
    fn extend(&mut self, other: &Names<'a>) {
        for name in other.table.iter() {
            self.insert(hash_of(name), name);
        }
    }
}

/// The lists writing one function fills, kept from function to function so that each
/// function reuses the room of the ones before ([`Scope::with_lists`] lends them and
/// takes them back emptied).
#[derive(Debug, Default)]
pub struct FunctionLists<'a> {
    /// The room the function's scope takes its names in.
    names: Names<'a>,
    /// What the function's arguments read as (their names), by position.
    pub arguments: Vec<Name<'a>>,
    /// The names of the function's locals, by handle index.
    pub locals: Vec<Name<'a>>,
    /// Whether each of the function's expressions is bound to a name, by handle index.
    pub bound: Vec<bool>,
}

/// The names taken in one scope of the output (the program's or module's, a function's,
/// a struct's members), and the scopes around it.
///
/// A scope takes a name as its target spelled it (a *base*) when that is free, else the
/// base with `_1`, `_2`, … appended, the first that is free here and in every enclosing
/// scope. Names are handed out as [`Name`]s: the IR's own text when the target spelled
/// it as it is (nearly every name, which then costs no allocation), else text made here,
/// kept by the scope and by the writer's name tables without a second copy.
#[derive(Clone, Debug, Default)]
pub struct Scope<'a> {
    /// The names of the enclosing scope, shared with it and with its other inner scopes:
    /// opening a function's scope must not copy the program's names (one copy per function
    /// made compiling quadratic in the number of functions).
    outer: Rc<Names<'a>>,
    /// The names of the scope around that one, if any, shared alike: a scope shared
    /// ([`Scope::share`]) while inside another keeps the enclosing names without copying
    /// them (MSL's entry-point program scope, inside the module's).
    outermost: Option<Rc<Names<'a>>>,
    /// The names taken in this scope (and not yet shared).
    taken: Names<'a>,
    /// Whether a name this scope gave got a number because its base was taken (or a name
    /// was taken as it is twice, [`Scope::take_as_is`]).
    numbered: bool,
    /// Whether some name this scope tried was taken in an enclosing scope (see
    /// [`Scope::clashed_outside`]).
    outer_clash: bool,
}

impl<'a> Scope<'a> {
    /// A scope where no name is taken yet.
    pub fn new() -> Self {
        Scope::default()
    }

    /// Makes room for `additional` more names in this scope, so that taking them doesn't
    /// grow (and rehash) the set of taken names step by step.
    pub fn reserve(&mut self, additional: usize) {
        self.taken.table.reserve(additional, |name| hash_of(name));
    }

    /// Moves the names taken here into the part that inner scopes share, so that
    /// [`Scope::inner`] costs nothing until more names are taken here.
    pub fn share(&mut self) {
        if self.taken.is_empty() {
            return;
        }
        let taken = std::mem::take(&mut self.taken);
        if self.outer.is_empty() {
            // The usual case (an outermost scope): the set moves as it is.
            self.outer = Rc::new(taken);
        } else if self.outermost.is_none() {
            // A scope opened inside another: the enclosing names stay shared.
            self.outermost = Some(std::mem::replace(&mut self.outer, Rc::new(taken)));
        } else {
            Rc::make_mut(&mut self.outer).extend(&taken);
        }
    }

    /// A scope inside this one (a function's, inside the program's): every name taken
    /// here stays taken there; the names it takes are its own.
    pub fn inner(&self) -> Scope<'a> {
        let outer = if self.taken.is_empty() {
            Rc::clone(&self.outer)
        } else {
            let mut all = (*self.outer).clone();
            all.extend(&self.taken);
            Rc::new(all)
        };
        Scope {
            outer,
            outermost: self.outermost.clone(),
            taken: Names::default(),
            numbered: false,
            outer_clash: false,
        }
    }

    /// Runs `write` with this scope, one just opened ([`Scope::inner`]), and `lists`: the
    /// scope takes its names in the room of the set the lists keep, and when `write`
    /// returns the set and every list go back to `lists` emptied, for the next function
    /// (so that writing a function allocates nothing once the ones before made room).
    /// `write` must not lend the same lists again: that would empty them under it.
    pub fn with_lists<R>(
        mut self,
        lists: &mut FunctionLists<'a>,
        write: impl FnOnce(&mut Scope<'a>, &mut FunctionLists<'a>) -> R,
    ) -> R {
        debug_assert!(
            lists.arguments.is_empty() && lists.locals.is_empty() && lists.bound.is_empty(),
            "the lists come back emptied from the last function"
        );
        if self.taken.is_empty() {
            std::mem::swap(&mut self.taken, &mut lists.names);
        }
        let result = write(&mut self, lists);
        lists.names = self.taken;
        lists.names.clear();
        lists.arguments.clear();
        lists.locals.clear();
        lists.bound.clear();
        result
    }

    /// Whether a name tried here was taken in an enclosing scope. When none was, the
    /// names given here are the ones any enclosing scopes that take fewer names would
    /// have led to.
    pub fn clashed_outside(&self) -> bool {
        self.outer_clash
    }

    /// Whether some name this scope gave got a number because its base was taken (or a
    /// name was taken as it is twice): when none did, each name is its base.
    pub fn numbered(&self) -> bool {
        self.numbered
    }

    /// Whether `name` is taken in this scope or an enclosing one.
    pub fn is_taken(&self, name: &str) -> bool {
        let hash = hash_of(name);
        self.taken.contains(hash, name) || self.is_taken_outside(hash, name)
    }

    /// Whether `name`, whose hash is `hash`, is taken in an enclosing scope.
    #[inline]
    fn is_taken_outside(&self, hash: u64, name: &str) -> bool {
        self.outer.contains(hash, name)
            || self
                .outermost
                .as_ref()
                .is_some_and(|names| names.contains(hash, name))
    }

    /// [`Scope::is_taken`] for a name this scope tries, noting a clash with an
    /// enclosing scope.
    fn try_name(&mut self, name: &str) -> bool {
        let hash = hash_of(name);
        if self.taken.contains(hash, name) {
            return true;
        }
        let outside = self.is_taken_outside(hash, name);
        self.outer_clash |= outside;
        outside
    }

    /// Takes `base` (a name as the target spells it), if it is free, else `base` with the
    /// first number that makes it free: `base` borrowed when the target spelled text
    /// that outlives the output (the IR's) as it is.
    #[inline]
    pub fn take_base(&mut self, base: Cow<'a, str>) -> Name<'a> {
        match base {
            Cow::Borrowed(text) => self.take(text, Some(text)),
            Cow::Owned(text) => self.take(&text, None),
        }
    }

    /// Takes `base`, `lasting` when that is its text and outlives the output, if it is
    /// free, else `base` with the first number that makes it free.
    ///
    /// A free name (nearly every one) costs one lookup in each enclosing scope's names
    /// and one insertion here, which also tells whether this scope took it already.
    #[inline]
    pub fn take(&mut self, base: &str, lasting: Option<&'a str>) -> Name<'a> {
        let hash = hash_of(base);
        if !self.is_taken_outside(hash, base) {
            match self
                .taken
                .table
                .entry(hash, |held| **held == *base, |held| hash_of(held))
            {
                Entry::Vacant(vacant) => {
                    let name = match lasting {
                        Some(text) => Name::Borrowed(text),
                        None => Name::Owned(base.into()),
                    };
                    vacant.insert(name.clone());
                    return name;
                }
                Entry::Occupied(_) => {}
            }
        } else if !self.taken.contains(hash, base) {
            // Taken only in an enclosing scope (as `try_name` would note it).
            self.outer_clash = true;
        }
        self.numbered = true;
        let mut candidate = std::mem::take(&mut self.taken.candidate);
        first_free_numbered(&mut candidate, base, |candidate| self.try_name(candidate));
        let name = Name::Owned(Rc::from(candidate.as_str()));
        self.taken.candidate = candidate;
        self.taken.insert(hash_of(&name), &name);
        name
    }

    /// Takes `name`, one given in another scope, as it is: the caller knows it is free
    /// here.
    #[inline]
    pub fn keep(&mut self, name: &Name<'a>) {
        self.taken.insert(hash_of(name), name);
    }

    /// Takes `name`, one the writer makes up itself, as it is, noting it
    /// [`Scope::numbered`] if this scope took it already.
    pub fn take_as_is(&mut self, name: Name<'a>) {
        if !self.taken.insert(hash_of(&name), &name) {
            self.numbered = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{FunctionLists, Name, Scope};

    #[test]
    fn inner_scopes_avoid_the_outer_names_but_not_each_others() {
        let mut program = Scope::new();
        assert_eq!(&*program.take("f", None), "f");
        program.share();
        assert_eq!(&*program.take("g", None), "g");
        let mut first = program.inner();
        assert_eq!(&*first.take("f", None), "f_1");
        assert!(first.clashed_outside());
        assert_eq!(&*first.take("g", None), "g_1");
        assert_eq!(&*first.take("x", None), "x");
        let mut second = program.inner();
        assert_eq!(&*second.take("x", None), "x");
        assert!(!second.clashed_outside());
        assert_eq!(&*program.take("x", None), "x");
    }

    #[test]
    fn a_scope_inside_a_scope_inside_another_avoids_both() {
        let mut module = Scope::new();
        let global = module.take("g", None);
        module.share();
        let mut program = module.inner();
        program.keep(&global);
        assert_eq!(&*program.take("f", None), "f");
        assert!(!program.numbered());
        program.share();
        let mut function = program.inner();
        assert_eq!(&*function.take("g", None), "g_1");
        assert_eq!(&*function.take("f", None), "f_1");
        assert!(function.numbered());
        assert!(!module.is_taken("f"));
    }

    #[test]
    fn clashes_get_the_first_free_number() {
        let mut scope = Scope::new();
        scope.take_as_is(Name::Borrowed("i_1"));
        assert!(!scope.numbered());
        assert_eq!(&*scope.take("i", Some("i")), "i");
        assert_eq!(&*scope.take("i", None), "i_2");
        assert!(scope.numbered());
    }

    #[test]
    fn lent_lists_come_back_empty() {
        let program = Scope::new();
        let mut lists = FunctionLists::default();
        let name = program.inner().with_lists(&mut lists, |function, lists| {
            lists.locals.push(function.take("i", Some("i")));
            lists.bound.push(true);
            function.take("i", None)
        });
        assert_eq!(&*name, "i_1");
        assert!(lists.names.is_empty() && lists.locals.is_empty() && lists.bound.is_empty());
    }
}
