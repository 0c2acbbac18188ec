//! Declared symmetries as tables ([`Game::symmetry_tables`]): a map whose image keeps a
//! field, rebuilds a set field element by element (`{ f(x) for x in s }`, with filters of
//! `x` or not), or computes a field with few values from fields with few values, is, for
//! each choice of the values of the fields it reads besides its sets (its *context*: a
//! board's size, say), a map of each set's elements and a new context. Such maps are
//! evaluated here, in every context, at every element a set field may hold (its type's
//! values, at most 128, and those the domains pass found its elements to take); an
//! element a filter leaves out has no image, so a set that holds it is mapped as written.
//!
//! An analysis: the maps as written stay. The interpreter reads a position's image off the
//! tables where they hold its elements (and evaluates the map as written elsewhere); native
//! code turns them into permutations of the sets' bits and tabulates the group they
//! generate. Every entry is the map's value there, or its failure, so every image is the
//! map's.

use crate::ir::*;
use crate::opt::elementwise::{field_images, FieldImage};
use crate::opt::evaluate::Evaluations;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// The most contexts for which a game's maps are tabulated.
pub const CONTEXT_LIMIT: usize = 4096;

/// Runs the pass: each game with declared symmetries gets their tables.
pub fn run(program: &mut Program, source: &str) {
    let tables: Vec<Option<SymmetryTables>> = {
        let evaluations = Evaluations::new(program, source);
        (program.games.iter().enumerate())
            .map(|(gid, game)| tables(program, &evaluations, gid, game))
            .collect()
    };
    for (game, t) in program.games.iter_mut().zip(tables) {
        game.symmetry_tables = t;
    }
}

/// How a map's image gives one field.
enum Arg<'e> {
    /// The field itself.
    Kept,
    /// `{ elem for x in field where filters }`.
    Elements {
        elem: &'e IExpr,
        x: &'e Var,
        filters: Vec<&'e IExpr>,
    },
    /// An expression of context fields.
    Computed(&'e IExpr),
}

/// The elements set field `i` of `game` may hold, where they are few: its type's values
/// (at most 128) and those the domains pass found.
pub fn set_elements(program: &Program, game: &Game, i: usize) -> Option<Vec<Val>> {
    let FieldTy::Set(inner) = &game.fields[i].ty else {
        return None;
    };
    let typed = inner.values(&program.types, 128);
    let found = game.domains.get(i).cloned().flatten();
    if typed.is_none() && found.is_none() {
        return None;
    }
    let all: BTreeSet<Val> = typed
        .into_iter()
        .flatten()
        .chain(found.iter().flat_map(|d| d.iter().cloned()))
        .collect();
    Some(all.into_iter().collect())
}

/// The values of field `i` of `game` when it can be part of a context: a range or `bool`
/// with few values.
pub fn context_values(program: &Program, game: &Game, i: usize) -> Option<Vec<Val>> {
    let ty = &game.fields[i].ty;
    match ty {
        FieldTy::Range(..) | FieldTy::Bool => ty.values(&program.types, CONTEXT_LIMIT),
        _ => None,
    }
}

/// The tables of `game`'s declared maps, where it has some and its contexts are few.
fn tables(
    program: &Program,
    evaluations: &Evaluations,
    gid: usize,
    game: &Game,
) -> Option<SymmetryTables> {
    if game.symmetries.is_empty() {
        return None;
    }
    let elements: Vec<Option<Vec<Val>>> = (0..game.fields.len())
        .map(|i| set_elements(program, game, i))
        .collect();
    let shapes: Vec<Option<Vec<Arg>>> = (game.symmetries.iter())
        .map(|s| image_shape(gid, game, &elements, &s.result))
        .collect();
    // The context: the fields that some map reads or computes besides its sets.
    let mut used = BTreeSet::new();
    for (i, arg) in shapes.iter().flatten().flat_map(|s| s.iter().enumerate()) {
        match arg {
            Arg::Kept => {}
            Arg::Elements { elem, filters, .. } => {
                for e in std::iter::once(elem).chain(filters) {
                    e.for_each_read(&mut |v| {
                        if v.slot.index() < game.fields.len() {
                            used.insert(v.slot.index());
                        }
                    });
                }
            }
            Arg::Computed(e) => {
                used.insert(i);
                e.for_each_read(&mut |v| {
                    used.insert(v.slot.index());
                });
            }
        }
    }
    let context: Vec<ContextField> = (used.iter())
        .map(|&f| Some((f, context_values(program, game, f)?)))
        .collect::<Option<_>>()?;
    // No tables where the contexts are too many.
    if context.count() > CONTEXT_LIMIT {
        return None;
    }
    let maps = (shapes.iter())
        .map(|shape| table(evaluations, game, &elements, shape.as_deref()?, &context))
        .collect();
    Some(SymmetryTables { context, maps })
}

/// How each field of `result` (a symmetry's image) is given, when the map has the form
/// ([`field_images`], the reading the proof of `opt/symmetry.rs` shares).
fn image_shape<'e>(
    gid: usize,
    game: &Game,
    elements: &[Option<Vec<Val>>],
    result: &'e IExpr,
) -> Option<Vec<Arg<'e>>> {
    let n = game.fields.len();
    let sets = |i: usize| elements[i].is_some();
    // Fields with few values (not sets): a context.
    let context = |v: VarId| v.index() < n && !sets(v.index());
    // Reads context fields and `x` alone.
    let context_reads = |e: &IExpr, x: Option<VarId>| {
        let mut fine = true;
        e.for_each_read(&mut |v| fine &= Some(v.slot) == x || context(v.slot));
        fine
    };
    let fields = field_images(gid, result, &context)?;
    let mut shape = Vec::with_capacity(n);
    for (i, (arg, field)) in fields.into_iter().enumerate() {
        shape.push(match field {
            FieldImage::Kept => Arg::Kept,
            FieldImage::Elements {
                elem,
                vars: [x],
                filters,
            } if sets(i) && context_reads(elem, Some(x.slot)) => Arg::Elements { elem, x, filters },
            _ if !sets(i) && context_reads(arg, None) => Arg::Computed(arg),
            _ => return None,
        });
    }
    Some(shape)
}

/// The table of a map of shape `shape` in every context; `None` when it applies in none.
fn table(
    evaluations: &Evaluations,
    game: &Game,
    elements: &[Option<Vec<Val>>],
    shape: &[Arg],
    context: &[ContextField],
) -> Option<SymmetryTable> {
    let mut entries = Vec::with_capacity(context.count());
    for rank in 0..context.count() {
        let choice = context.choice(rank);
        let mut env = vec![Val::Int(0); game.locals.len()];
        for ((f, _), v) in context.iter().zip(&choice) {
            env[*f] = v.clone();
        }
        let entry = (|| {
            let mut image = choice.clone();
            let mut maps = Vec::with_capacity(shape.len());
            for (i, arg) in shape.iter().enumerate() {
                match arg {
                    Arg::Kept => maps.push(None),
                    Arg::Computed(e) => {
                        let v = evaluations.eval(e, &env)??;
                        let k = context.iter().position(|(f, _)| *f == i)?;
                        image[k] = v;
                        maps.push(None);
                    }
                    Arg::Elements { elem, x, filters } => {
                        let values = elements[i].as_ref()?;
                        let mut images = evaluations.map(elem, x, &env, values)?;
                        // `None` where `f` fails or leaves the element type, and where a
                        // filter fails or leaves the element out (a set that holds it is
                        // then mapped as written).
                        let FieldTy::Set(inner) = &game.fields[i].ty else {
                            return None;
                        };
                        for filter in filters {
                            let passes = evaluations.map(filter, x, &env, values)?;
                            for (w, pass) in images.iter_mut().zip(passes) {
                                if pass != Some(Val::Bool(true)) {
                                    *w = None;
                                }
                            }
                        }
                        let by_element: BTreeMap<Val, Option<Val>> = (values.iter().cloned())
                            .zip(images.into_iter().map(|w| w.filter(|w| inner.admits(w))))
                            .collect();
                        maps.push(Some(Rc::new(by_element)));
                    }
                }
            }
            Some((context.rank_of(&image)?, maps))
        })();
        entries.push(entry);
    }
    entries
        .iter()
        .any(Option::is_some)
        .then_some(SymmetryTable { entries })
}
