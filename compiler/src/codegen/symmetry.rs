//! Declared symmetries: `Rules::least_image_fixing` of a game with `symmetry` maps.
//!
//! A map whose image keeps a field, rebuilds a set field element by element (`{ f(x) for x
//! in s }`), or computes a field with few values from fields with few values, is for each
//! choice of the values of the fields it reads besides its sets (its *context*: a board's
//! size, say) a permutation of the sets' bits and a new context. Such maps are evaluated
//! while building, for every context, with the group they generate; a position's least
//! image is then the least of the group's images of it, a table lookup per byte of each
//! set. Other maps are followed through their rules at run time
//! (`rules::least_image_fixing`).

use super::layout::Packed;
use super::Gen;
use crate::ir::*;
use cgdl_runtime::native::UNDEFINED;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};
use std::collections::HashSet;
use std::rc::Rc;

/// A map of a set field's bits: the bit each bit goes to ([`UNDEFINED`] for an element
/// the map is not defined at: it applies to sets without it), and whether the set takes
/// 128 bits.
type BitMap = (Vec<u32>, bool);

/// One map of a game's positions, or an element of the group the maps generate, as bit
/// maps: for each context (in rank order), `None` where the map does not apply, else the
/// image's context and a map of each field (`None`: kept; a context field's image is in
/// the context).
#[derive(Clone, Debug, PartialEq)]
struct BitSymmetry {
    entries: Vec<Option<(usize, Vec<Option<BitMap>>)>>,
}

impl BitSymmetry {
    /// This map after `first`.
    fn after(&self, first: &BitSymmetry) -> BitSymmetry {
        let entries = (first.entries.iter())
            .map(|entry| {
                let (middle, first_maps) = entry.as_ref()?;
                let (to, maps) = self.entries[*middle].as_ref()?;
                let composed = (maps.iter().zip(first_maps))
                    .map(|(g, h)| match (g, h) {
                        (None, x) | (x, None) => x.clone(),
                        (Some((g, wide)), Some((h, _))) => {
                            let image = (h.iter())
                                .map(|&b| match b {
                                    UNDEFINED => UNDEFINED,
                                    b => g[b as usize],
                                })
                                .collect();
                            moved((image, *wide))
                        }
                    })
                    .collect();
                Some((*to, composed))
            })
            .collect();
        BitSymmetry { entries }
    }

    /// Whether it maps every position it applies to to itself.
    fn is_identity(&self) -> bool {
        let fixed = |map: &Option<BitMap>| match map {
            None => true,
            Some((m, _)) => (m.iter().enumerate()).all(|(i, &b)| b == UNDEFINED || b as usize == i),
        };
        (self.entries.iter().enumerate()).all(|(c, entry)| match entry {
            None => true,
            Some((to, maps)) => *to == c && maps.iter().all(fixed),
        })
    }

    /// Whether it maps field `i`'s bits in some context.
    fn maps_field(&self, i: usize) -> bool {
        (self.entries.iter().flatten()).any(|(_, maps)| maps[i].is_some())
    }

    /// Whether it applies in its one context to every position.
    fn everywhere(&self) -> bool {
        match self.entries.as_slice() {
            [Some((_, maps))] => (maps.iter().flatten()).all(|(m, _)| !m.contains(&UNDEFINED)),
            _ => false,
        }
    }
}

/// The symmetries `found` on the elements `elements` (a set field's domain, among the
/// values `found` permutes): a map that takes an element of `elements` outside is left out
/// of its context (the rest still map each position onto an image: fewer maps merge fewer
/// positions, never different ones), and each twin class keeps its elements in `elements`.
fn restrict_found(found: &FoundSymmetries, elements: &[Val]) -> FoundSymmetries {
    let rank: std::collections::HashMap<&Val, u32> = (found.elements.iter().enumerate())
        .map(|(r, v)| (v, r as u32))
        .collect();
    let index: std::collections::HashMap<u32, u32> = (elements.iter().enumerate())
        .filter_map(|(k, v)| Some((*rank.get(v)?, k as u32)))
        .collect();
    let groups = (found.groups.iter())
        .map(|g| {
            let maps = (g.maps.iter())
                .filter_map(|map| {
                    (elements.iter())
                        .map(|v| index.get(map.get(*rank.get(v)? as usize)?).copied())
                        .collect::<Option<Vec<u32>>>()
                })
                .collect();
            let twins = (g.twins.iter())
                .map(|class| class.iter().filter_map(|r| index.get(r).copied()).collect())
                .filter(|class: &Vec<u32>| class.len() > 1)
                .collect();
            ContextGroup {
                twins,
                maps,
                order: g.order,
            }
        })
        .collect();
    let restrict = |map: &Vec<u32>| {
        (elements.iter())
            .map(|v| index.get(map.get(*rank.get(v)? as usize)?).copied())
            .collect::<Option<Vec<u32>>>()
    };
    let across = (found.across.iter())
        .map(|maps| {
            (maps.iter())
                .filter_map(|(to, map)| Some((*to, restrict(map)?)))
                .collect()
        })
        .collect();
    FoundSymmetries {
        elements: elements.to_vec(),
        context: found.context.clone(),
        groups,
        to_corner: found.to_corner,
        across,
    }
}

/// `map`, or `None` when it moves no bit.
fn moved(map: BitMap) -> Option<BitMap> {
    (map.0.iter().enumerate())
        .any(|(i, &b)| b as usize != i)
        .then_some(map)
}

/// Restricts the maps `generators` to the elements that every map is defined at, in each
/// context, and takes into such elements again (a map undefined outside a board's lines
/// then composes with the others to the same group as on the lines alone). A map applies
/// to fewer sets, never to more, so every image is still an image.
fn common_domains(generators: &mut [BitSymmetry], sizes: &[Option<(usize, bool)>]) {
    let Some(first) = generators.first() else {
        return;
    };
    let contexts = first.entries.len();
    // Each context's domain of each set field, as a list of flags.
    let mut domains: Vec<Vec<Vec<bool>>> = (0..contexts)
        .map(|_| {
            sizes
                .iter()
                .map(|n| vec![true; n.map_or(0, |(n, _)| n)])
                .collect()
        })
        .collect();
    loop {
        let mut changed = false;
        for g in generators.iter() {
            for (c, entry) in g.entries.iter().enumerate() {
                let Some((to, maps)) = entry else {
                    continue;
                };
                for (i, map) in maps.iter().enumerate() {
                    for x in 0..domains[c][i].len() {
                        if !domains[c][i][x] {
                            continue;
                        }
                        let image = match map {
                            Some((m, _)) => m[x],
                            None => x as u32,
                        };
                        let inside = image != UNDEFINED && domains[*to][i][image as usize];
                        if !inside {
                            domains[c][i][x] = false;
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    for g in generators.iter_mut() {
        for (c, entry) in g.entries.iter_mut().enumerate() {
            let Some((_, maps)) = entry else {
                continue;
            };
            for (i, map) in maps.iter_mut().enumerate() {
                let domain = &domains[c][i];
                if domain.iter().all(|&inside| inside) {
                    continue;
                }
                let (mut m, wide) = match map.take() {
                    Some(map) => map,
                    None => (
                        (0..domain.len() as u32).collect(),
                        sizes[i].is_some_and(|(_, w)| w),
                    ),
                };
                for (x, inside) in domain.iter().enumerate() {
                    if !inside {
                        m[x] = UNDEFINED;
                    }
                }
                *map = Some((m, wide));
            }
        }
    }
}

/// The maps that `generators` generate by composition, but the identity; `None` when
/// there are more than the runtime's orbit limit allows.
fn bit_group(generators: &[BitSymmetry]) -> Option<Vec<BitSymmetry>> {
    let mut group: Vec<BitSymmetry> = Vec::new();
    let mut work: Vec<BitSymmetry> = generators.to_vec();
    while let Some(e) = work.pop() {
        if e.is_identity() || group.contains(&e) {
            continue;
        }
        if group.len() + 1 >= cgdl_runtime::rules::ORBIT_LIMIT {
            return None;
        }
        for g in generators {
            work.push(g.after(&e));
        }
        group.push(e);
    }
    Some(group)
}

/// The most elements of a group of permutations of fields whose images a least-image arm
/// tries one by one (`Gen::permutation_arm`).
const PERMUTATION_GROUP: usize = 64;

/// The group the permutations `perms` of `n` fields generate (`σ(p)_i = p_π(i)`, the
/// identity first), or `None` past 5040 elements.
fn permutation_group(perms: &[Vec<usize>], n: usize) -> Option<Vec<Vec<usize>>> {
    let mut group = vec![(0..n).collect::<Vec<usize>>()];
    let mut seen: HashSet<Vec<usize>> = group.iter().cloned().collect();
    let mut next = 0;
    while next < group.len() {
        for pi in perms {
            let composed: Vec<usize> = pi.iter().map(|&j| group[next][j]).collect();
            if seen.insert(composed.clone()) {
                if group.len() == 5040 {
                    return None;
                }
                group.push(composed);
            }
        }
        next += 1;
    }
    Some(group)
}

/// The orbits of `0..n` under the permutations `perms`, each in increasing order.
fn field_orbits(perms: &[Vec<usize>], n: usize) -> Vec<Vec<usize>> {
    let mut orbit_of: Vec<usize> = (0..n).collect();
    let find = |orbit_of: &Vec<usize>, mut i: usize| {
        while orbit_of[i] != i {
            i = orbit_of[i];
        }
        i
    };
    for pi in perms {
        for (i, &j) in pi.iter().enumerate() {
            let (a, b) = (find(&orbit_of, i), find(&orbit_of, j));
            orbit_of[a.max(b)] = a.min(b);
        }
    }
    let mut orbits: Vec<Vec<usize>> = Vec::new();
    let mut index = vec![usize::MAX; n];
    for i in 0..n {
        let root = find(&orbit_of, i);
        if index[root] == usize::MAX {
            index[root] = orbits.len();
            orbits.push(Vec::new());
        }
        orbits[index[root]].push(i);
    }
    orbits
}

/// What a game with symmetries adds to the universe's `Rules`.
pub(super) struct SymmetryArms {
    /// The arm of `Rules::least_image_fixing`.
    pub least: TokenStream,
    /// Its functions and tables.
    pub items: TokenStream,
    /// Where the solver checks the maps (they are not proven): the arms of
    /// `Rules::checked_symmetries`, `Rules::symmetry_image`, `Rules::symmetry_name` and
    /// `Rules::proven_least_image_fixing`.
    pub checked: Option<[TokenStream; 4]>,
    /// Whether the arm is a few bit maps of the position alone (no tables of twins, no
    /// move to the corner, no maps across contexts): cheap enough to inline into the
    /// solver's loop over options, which takes a least image per option.
    pub small: bool,
}

/// The most group elements a least-image arm inlined into the solver applies.
const INLINED_GROUP: usize = 8;

impl Gen<'_> {
    /// The arm of `Rules::least_image_fixing` and `<game>_symmetry` (the image of a
    /// position under each declared symmetry, an error where it fails), for a game with
    /// symmetries; where the maps are not proven, the arms the solver's check reads.
    pub(super) fn symmetry_fn(
        &self,
        gid: usize,
        game: &Game,
    ) -> Result<Option<SymmetryArms>, super::CodegenError> {
        if game.symmetries.is_empty() {
            return Ok(game
                .found
                .as_ref()
                .and_then(|f| self.found_fn(gid, game, f)));
        }
        let rt = &self.rt;
        let fields = self.field_names(game);
        let name = &self.names.games[gid].symmetry;
        // Each map as bit maps, where it is one (evaluated once, while building).
        let (contexts, bit_maps) = self.bit_symmetries(gid, game);
        let context = self.context_rank(gid, &contexts, &fields);
        // Every map bit maps: the group they generate is computed while building, and the
        // least image is the least of its elements' images.
        let mut all_bits: Option<Vec<BitSymmetry>> = bit_maps.iter().cloned().collect();
        if let Some(all) = &mut all_bits {
            common_domains(all, &self.set_sizes(gid, game));
        }
        // Maps that the solver checks are followed one by one (`rules::permuted_orbit`).
        let checked = game.checks_symmetries();
        if let Some(group) = (all_bits.as_deref().filter(|_| !checked)).and_then(bit_group) {
            let mut statics = Vec::new();
            let mut tries = Vec::new();
            for (e, element) in group.iter().enumerate() {
                let prefix = format!("{name}_group_{e}");
                let (guard, image) =
                    self.bit_image(gid, "", &prefix, element, &contexts, &mut statics);
                let bit = Literal::u64_unsuffixed(1 << e);
                let compare = quote! {
                    let image = #image;
                    if image < least {
                        least = image;
                    } else if image == pos {
                        fixing |= #bit;
                    }
                };
                tries.push(match guard {
                    None => quote!({ #compare }),
                    Some(guard) => quote!(if let #guard { #compare }),
                });
            }
            let pattern = self.pos_pattern(gid, &fields);
            let arm = quote!(#pattern => {
                let (mut least, mut fixing) = (pos, 0u64);
                #context
                #(#tries)*
                (least, fixing)
            });
            self.context_values(gid, "", &contexts, &mut statics);
            return Ok(Some(SymmetryArms {
                least: arm,
                items: quote!(#(#statics)*),
                checked: None,
                small: group.len() <= INLINED_GROUP,
            }));
        }
        if let Some(arms) = (!checked)
            .then(|| self.permutation_arm(gid, game))
            .flatten()
        {
            return Ok(Some(arms));
        }
        let mut read: HashSet<Rc<str>> = HashSet::new();
        let (mut arms, mut statics) = (Vec::new(), Vec::new());
        for (k, s) in game.symmetries.iter().enumerate() {
            let body = match &bit_maps[k] {
                // Bit maps of the sets (and the context), computed while building.
                Some(element) => {
                    read.extend(game.fields.iter().map(|f| Rc::from(f.name.as_str())));
                    let prefix = format!("{name}_{k}");
                    let (guard, image) =
                        self.bit_image(gid, "", &prefix, element, &contexts, &mut statics);
                    match guard {
                        None => quote!(::std::result::Result::Ok(#image)),
                        Some(guard) => quote!({
                            #context
                            if let #guard {
                                ::std::result::Result::Ok(#image)
                            } else {
                                ::std::result::Result::Err(#rt::RuleError::new(
                                    "the symmetry does not apply to this position",
                                ))
                            }
                        }),
                    }
                }
                None => {
                    let mut used: HashSet<Rc<str>> = HashSet::new();
                    s.result.for_each_read(&mut |v| {
                        used.insert(v.name.clone());
                    });
                    self.reading(|f| s.result.for_each_read(f));
                    let image = self.result_tree(&s.result, &|e| match e.kind() {
                        IExprKind::Pos { .. } => {
                            let p = self.position(e)?;
                            Ok(quote!(::std::result::Result::Ok(#p)))
                        }
                        _ => Err(super::unsupported(
                            "a symmetry whose image is not a position",
                        )),
                    })?;
                    let mut unpacked = Vec::new();
                    for (i, (f, x)) in game.fields.iter().zip(&fields).enumerate() {
                        let packing = &self.layout.games[gid].fields[i];
                        if used.contains(f.name.as_str()) && !matches!(packing, Packed::Plain) {
                            let value = self.unpack(gid, i, x);
                            unpacked.push(quote!(let #x = #value;));
                        }
                    }
                    read.extend(used);
                    quote!({ #(#unpacked)* #image })
                }
            };
            let k = Literal::usize_unsuffixed(k);
            arms.push(quote!(#k => #body,));
        }
        self.context_values(gid, "", &contexts, &mut statics);
        let params = (game.fields.iter().zip(&fields).enumerate()).map(|(i, (f, x))| {
            let ty = self.stored_ty(&f.ty, &self.layout.games[gid].fields[i]);
            if read.contains(f.name.as_str()) {
                quote!(#x: #ty)
            } else {
                quote!(_: #ty)
            }
        });
        let doc = format!(
            " The image of a position of `{}` under each symmetry.",
            game.name
        );
        let lints = super::user_code_lints(&[]);
        let function = quote! {
            #(#statics)*
            #[doc = #doc]
            #lints
            fn #name(#(#params,)* map_index: usize) -> ::std::result::Result<Pos, #rt::RuleError> {
                match map_index {
                    #(#arms)*
                    _ => ::std::result::Result::Err(#rt::RuleError::new("no such symmetry")),
                }
            }
        };
        let pattern = self.pos_pattern(gid, &fields);
        let maps = Literal::usize_unsuffixed(game.symmetries.len());
        let any = self.any_pos(gid, game);
        // Images are positions of the same game: another never reaches the call.
        let other =
            (self.program.games.len() > 1).then(|| quote!(_ => ::std::option::Option::None,));
        let mut function = function;
        // The arm of `Rules::proven_least_image_fixing` where the maps are checked.
        let mut proven = quote!();
        let arm = match checked {
            false => quote! {
                #any => #rt::rules::least_image_fixing(pos, #maps, |p, map_index| match p {
                    #pattern => #name(#(#fields,)* map_index).ok(),
                    #other
                }),
            },
            // The checked maps over the found symmetries' least image (where the game has
            // found symmetries too), each image taken to its least image under them; a
            // position's least image found once a thread (the maps are evaluated as written).
            true => {
                let (base, found_items) = self.checked_base(gid, game);
                function.extend(found_items);
                let upper = name.to_string().to_ascii_uppercase();
                let cache = format_ident!("{upper}_CHECKED");
                let image_fn = format_ident!("{name}_checked_image");
                let start = match &base {
                    Some(f) => quote!(#f(pos)),
                    None => quote!((pos, 0u64)),
                };
                proven = quote!(#any => #start,);
                let image = match &base {
                    Some(f) => quote!(#name(#(#fields,)* map_index).ok().map(|q| #f(q).0)),
                    None => quote!(#name(#(#fields,)* map_index).ok()),
                };
                let doc = format!(
                    " The image of a position of `{}` under a checked map, as the solver sees it.",
                    game.name
                );
                // A least image under the maps is found once a thread (the search of a
                // partizan game asks it of each option); a solver of values asks each map
                // once a position it expands.
                function.extend(quote! {
                    ::std::thread_local! {
                        static #cache: ::std::cell::RefCell<#rt::rules::ImageCache<Pos>> =
                            ::std::cell::RefCell::new(#rt::rules::ImageCache::new());
                    }
                    #[doc = #doc]
                    #[allow(clippy::match_single_binding, unreachable_patterns)]
                    fn #image_fn(pos: Pos, map_index: usize) -> ::std::option::Option<Pos> {
                        match pos {
                            #pattern => #image,
                            #other
                        }
                    }
                });
                quote! {
                    #any => {
                        let (base, fixing) = #start;
                        let least = #cache.with_borrow_mut(|cache| {
                            cache.image(base, |base| {
                                #rt::rules::checked_least_image_fixing(base, #maps, #image_fn).0
                            })
                        });
                        (least, fixing)
                    }
                }
            }
        };
        let checked = checked.then(|| {
            let names = game.symmetries.iter().map(|s| Literal::string(&s.name));
            let ks = (0..game.symmetries.len()).map(Literal::usize_unsuffixed);
            let image_fn = format_ident!("{name}_checked_image");
            [
                quote!(#any => #maps,),
                quote!(#any => #image_fn(pos, map_index),),
                quote!(#any => match map_index {
                    #(#ks => #names.to_string(),)*
                    _ => ::std::format!("#{map_index}"),
                },),
                proven,
            ]
        });
        Ok(Some(SymmetryArms {
            least: arm,
            items: function,
            checked,
            small: false,
        }))
    }

    /// The arm of `Rules::least_image_fixing` for a game whose declared maps are proven and
    /// each permutes its fields (`Game::field_permutation`) among fields stored alike: where
    /// the group they generate is every permutation within each of its orbits of fields
    /// (three heaps and their swaps), each orbit's stored values sorted; where it is some
    /// other group of at most [`PERMUTATION_GROUP`] elements, the least of their images.
    /// Either is the least image in `Pos` order (fields compared in order), with each map's
    /// bit where it fixes the position. `None` for other games.
    fn permutation_arm(&self, gid: usize, game: &Game) -> Option<SymmetryArms> {
        let perms: Vec<Vec<usize>> = (game.symmetries.iter())
            .map(|s| game.field_permutation(gid, &s.result))
            .collect::<Option<_>>()?;
        let packing = &self.layout.games[gid].fields;
        let alike = |i: usize, j: usize| match (&packing[i], &packing[j]) {
            (Packed::Plain, Packed::Plain) => true,
            (Packed::Narrow(a), Packed::Narrow(b)) => a == b,
            (Packed::Bits(a, x), Packed::Bits(b, y)) => a == b && x == y,
            (Packed::Ranks(a, x), Packed::Ranks(b, y)) => a == b && x == y,
            (Packed::Domain(a, x), Packed::Domain(b, y)) => a == b && x == y,
            // Each list field has its own interner.
            _ => false,
        };
        if !(perms.iter()).all(|pi| pi.iter().enumerate().all(|(i, &j)| alike(i, j))) {
            return None;
        }
        let group = permutation_group(&perms, game.fields.len())?;
        let fields = self.field_names(game);
        let pattern = self.pos_pattern(gid, &fields);
        // Map `k` fixes the position where every field it moves equals its image's.
        let fixes = perms
            .iter()
            .enumerate()
            .filter(|&(k, _)| k < 64)
            .map(|(k, pi)| {
                let pairs: std::collections::BTreeSet<(usize, usize)> = (pi.iter().enumerate())
                    .filter(|&(i, &j)| i != j)
                    .map(|(i, &j)| (i.min(j), i.max(j)))
                    .collect();
                let same = pairs.into_iter().map(|(i, j)| {
                    let (a, b) = (&fields[i], &fields[j]);
                    quote!(#a == #b)
                });
                let bit = Literal::u64_unsuffixed(1 << k);
                quote!(if #(#same)&&* { fixing |= #bit; })
            });
        let orbits = field_orbits(&perms, game.fields.len());
        // Every permutation within each orbit: the product of the orbits' factorials (a
        // large orbit's past any group this arm takes).
        let full = (orbits.iter())
            .flat_map(|o| 1..=o.len())
            .fold(1usize, |n, k| n.saturating_mul(k));
        let least = if group.len() == full {
            let mut sorted: Vec<TokenStream> = fields.iter().map(|f| quote!(#f)).collect();
            let sorts = (orbits.iter().enumerate())
                .filter(|(_, o)| o.len() > 1)
                .map(|(b, orbit)| {
                    let block = format_ident!("block_{b}");
                    let values = orbit.iter().map(|&i| &fields[i]);
                    for (k, &i) in orbit.iter().enumerate() {
                        let k = Literal::usize_unsuffixed(k);
                        sorted[i] = quote!(#block[#k]);
                    }
                    quote! {
                        let mut #block = [#(#values),*];
                        #block.sort_unstable();
                    }
                })
                .collect::<Vec<_>>();
            let image = self.pos_pattern(gid, &sorted);
            quote!(#(#sorts)* (#image, fixing))
        } else if group.len() <= PERMUTATION_GROUP {
            let tries = group
                .iter()
                .filter(|g| g.iter().enumerate().any(|(i, &j)| i != j));
            let tries = tries.map(|g| {
                let image =
                    self.pos_pattern(gid, &g.iter().map(|&j| &fields[j]).collect::<Vec<_>>());
                quote! {
                    let image = #image;
                    if image < least {
                        least = image;
                    }
                }
            });
            quote! {
                let mut least = pos;
                #(#tries)*
                (least, fixing)
            }
        } else {
            return None;
        };
        Some(SymmetryArms {
            least: quote!(#pattern => {
                let mut fixing = 0u64;
                #(#fixes)*
                #least
            }),
            items: quote!(),
            checked: None,
            small: group.len() == full || group.len() <= INLINED_GROUP,
        })
    }

    /// For a game whose declared maps the solver checks and that has found symmetries too:
    /// the function giving a position's least image under the found ones (and the maps that
    /// fix it), and its items.
    fn checked_base(&self, gid: usize, game: &Game) -> (Option<Ident>, TokenStream) {
        let Some(arms) = (game.found.as_ref()).and_then(|f| self.found_fn(gid, game, f)) else {
            return (None, quote!());
        };
        let f = format_ident!("{}_found_base", self.names.games[gid].symmetry);
        let (least, items) = (arms.least, arms.items);
        let doc = format!(
            " The least image of a position of `{}` under its found symmetries.",
            game.name
        );
        let function = quote! {
            #items
            #[doc = #doc]
            #[allow(clippy::match_single_binding, unreachable_patterns)]
            #[inline]
            fn #f(pos: Pos) -> (Pos, u64) {
                match pos {
                    #least
                    other => (other, 0),
                }
            }
        };
        (Some(f), function)
    }

    /// The arm of `Rules::least_image_fixing` for a game with symmetries the compiler
    /// found (`crate::opt::symmetry`): each element of each context's group (modulo the
    /// twins) as bit maps of the set fields, each image with its twins made least. `None`
    /// where a set field is not kept as bits or a context field not as a number.
    fn found_fn(&self, gid: usize, game: &Game, found: &FoundSymmetries) -> Option<SymmetryArms> {
        let rt = &self.rt;
        let fields = self.field_names(game);
        let sizes = self.set_sizes(gid, game);
        // The set fields' bits hold the same values: the type's, or a domain's.
        let mut stored = (0..game.fields.len()).filter_map(|i| self.stored_elements(gid, i));
        let (elements, _) = stored.next()?;
        if stored.any(|(other, _)| other != elements) {
            return None;
        }
        let restricted;
        let found = if elements == found.elements {
            found
        } else {
            restricted = restrict_found(found, &elements);
            &restricted
        };
        for (i, f) in game.fields.iter().enumerate() {
            let fine = match &f.ty {
                FieldTy::Set(_) => sizes[i].is_some_and(|(n, _)| n == found.elements.len()),
                _ => self.context_field(gid, i).is_some(),
            };
            if !fine {
                return None;
            }
        }
        let contexts = found.context.clone();
        let count = found.groups.len();
        let most = found.groups.iter().map(|g| g.maps.len()).max().unwrap_or(0);
        let elements: Vec<BitSymmetry> = (0..most)
            .map(|e| BitSymmetry {
                entries: (0..count)
                    .map(|c| {
                        let map = found.groups[c].maps.get(e)?;
                        let maps = (sizes.iter())
                            .map(|size| {
                                let (_, wide) = (*size)?;
                                moved((map.clone(), wide))
                            })
                            .collect();
                        Some((c, maps))
                    })
                    .collect(),
            })
            .collect();
        let name = &self.names.games[gid].symmetry;
        let mut statics = Vec::new();
        let context = self.context_rank(gid, &contexts, &fields);
        let at = match contexts.is_empty() {
            true => quote!(0),
            false => quote!(context),
        };
        // Images moved to the corner (a board of rows × columns, its cells in order).
        let corner = match (found.to_corner, &game.translation) {
            (false, _) => None,
            (true, Some(t)) if crate::opt::translations::cells(&t.dims) == found.elements => {
                match t.dims.as_slice() {
                    [n] => Some((1u32, *n as u32)),
                    [r, c] => Some((*r as u32, *c as u32)),
                    _ => return None,
                }
            }
            (true, _) => return None,
        };
        // Twins made least: a function of the position, where some context has twins.
        let twins = found.groups.iter().any(|g| !g.twins.is_empty());
        let normalize = |pos: TokenStream| {
            let pos = match twins {
                true => {
                    let f = format_ident!("{name}_twins");
                    quote!(#f(#pos, #at))
                }
                false => pos,
            };
            match corner {
                Some(_) => {
                    let f = format_ident!("{name}_corner");
                    quote!(#f(#pos))
                }
                None => pos,
            }
        };
        if let Some((rows, cols)) = corner {
            let parts = (game.fields.iter().zip(&fields).enumerate()).map(|(i, (f, x))| {
                match (&f.ty, sizes[i]) {
                    (FieldTy::Set(_), Some((_, true))) => {
                        quote!(#rt::native::Bits(#rt::native::to_corner(#x.0, #rows, #cols)))
                    }
                    (FieldTy::Set(_), Some((_, false))) => {
                        quote!(#rt::native::Bits64(#rt::native::to_corner64(#x.0, #rows, #cols)))
                    }
                    _ => quote!(#x),
                }
            });
            let pattern = self.pos_pattern(gid, &fields);
            let built = self.pos_pattern(gid, &parts.collect::<Vec<_>>());
            let f = format_ident!("{name}_corner");
            let doc = format!(" A position of `{}` moved to the corner.", game.name);
            statics.push(quote! {
                #[doc = #doc]
                #[allow(clippy::match_single_binding, unreachable_patterns)]
                fn #f(pos: Pos) -> Pos {
                    match pos {
                        #pattern => #built,
                        other => other,
                    }
                }
            });
        }
        if twins {
            let table = format_ident!("{}_TWINS", name.to_string().to_ascii_uppercase());
            let classes = found.groups.iter().map(|g| {
                let classes = g.twins.iter().map(|class| {
                    let bits = class.iter().map(|&b| Literal::u32_unsuffixed(b));
                    quote!(&[#(#bits),*])
                });
                quote!(&[#(#classes),*])
            });
            let parts = (game.fields.iter().zip(&fields).enumerate()).map(|(i, (f, x))| {
                match (&f.ty, sizes[i]) {
                    (FieldTy::Set(_), Some((_, true))) => {
                        quote!(#rt::native::Bits(#table.normalize(context, #x.0)))
                    }
                    (FieldTy::Set(_), Some((_, false))) => {
                        quote!(#rt::native::Bits64(#table.normalize64(context, #x.0)))
                    }
                    _ => quote!(#x),
                }
            });
            let pattern = self.pos_pattern(gid, &fields);
            let built = self.pos_pattern(gid, &parts.collect::<Vec<_>>());
            let f = format_ident!("{name}_twins");
            let doc = format!(" A position of `{}` with its twins made least.", game.name);
            statics.push(quote! {
                static #table: ::std::sync::LazyLock<#rt::native::TwinClasses> =
                    ::std::sync::LazyLock::new(|| #rt::native::TwinClasses::new(&[#(#classes),*]));
                #[doc = #doc]
                #[allow(clippy::match_single_binding, unreachable_patterns)]
                fn #f(pos: Pos, context: usize) -> Pos {
                    match pos {
                        #pattern => #built,
                        other => other,
                    }
                }
            });
        }
        let mut tries = Vec::new();
        for (e, element) in elements.iter().enumerate() {
            let prefix = format!("{name}_found_{e}");
            let (guard, image) =
                self.bit_image(gid, "FOUND_", &prefix, element, &contexts, &mut statics);
            let image = normalize(image);
            let bit = Literal::u64_unsuffixed(1 << e);
            let compare = quote! {
                let image = #image;
                if image < least {
                    least = image;
                } else if image == own {
                    fixing |= #bit;
                }
            };
            tries.push(match guard {
                None => quote!({ #compare }),
                Some(guard) => quote!(if let #guard { #compare }),
            });
        }
        self.context_values(gid, "FOUND_", &contexts, &mut statics);
        let pattern = self.pos_pattern(gid, &fields);
        let own = normalize(quote!(pos));
        let search = match tries.is_empty() {
            true => quote!((own, 0)),
            false => quote! {
                let (mut least, mut fixing) = (own, 0u64);
                #(#tries)*
                (least, fixing)
            },
        };
        let body = quote! {
            #context
            let own = #own;
            #search
        };
        // Maps across contexts (or that the groups do not hold): the least of the least
        // images of their images too.
        let most_across = found.across.iter().map(Vec::len).max().unwrap_or(0);
        let arm = match most_across {
            0 => quote!(#[allow(unused_variables)] #pattern => { #body }),
            _ => {
                let least_fn = format_ident!("{name}_found_least");
                let doc = format!(
                    " The least image of a position of `{}` in its context's group.",
                    game.name
                );
                statics.push(quote! {
                    #[doc = #doc]
                    #[allow(unused_variables, clippy::match_single_binding, unreachable_patterns)]
                    fn #least_fn(pos: Pos) -> (Pos, u64) {
                        match pos {
                            #pattern => { #body }
                            other => (other, 0),
                        }
                    }
                });
                let mut across = Vec::new();
                for k in 0..most_across {
                    let element = BitSymmetry {
                        entries: (0..count)
                            .map(|c| {
                                let (to, map) = found.across[c].get(k)?;
                                let maps = (sizes.iter())
                                    .map(|size| {
                                        let (_, wide) = (*size)?;
                                        moved((map.clone(), wide))
                                    })
                                    .collect();
                                Some((*to, maps))
                            })
                            .collect(),
                    };
                    let prefix = format!("{name}_across_{k}");
                    let (guard, image) =
                        self.bit_image(gid, "FOUND_", &prefix, &element, &contexts, &mut statics);
                    let compare = quote! {
                        let (image, _) = #least_fn(#image);
                        if image < least {
                            least = image;
                        }
                    };
                    across.push(match guard {
                        None => quote!({ #compare }),
                        Some(guard) => quote!(if let #guard { #compare }),
                    });
                }
                quote!(#[allow(unused_variables)] #pattern => {
                    #context
                    let (mut least, fixing) = #least_fn(pos);
                    #(#across)*
                    (least, fixing)
                })
            }
        };
        Some(SymmetryArms {
            least: arm,
            items: quote!(#(#statics)*),
            checked: None,
            small: !twins && corner.is_none() && most_across == 0 && most <= INLINED_GROUP,
        })
    }

    /// The image of a position under `element`, its set fields mapped by tables added to
    /// `statics` (named after `prefix`): the image, and where it may not apply (the game
    /// has contexts, or a map is not defined everywhere), the pattern
    /// (`Some((to, [sets...])) = TABLE.apply(context, [sets...])`) under which it does.
    fn bit_image(
        &self,
        gid: usize,
        tag: &str,
        prefix: &str,
        element: &BitSymmetry,
        contexts: &[ContextField],
        statics: &mut Vec<TokenStream>,
    ) -> (Option<TokenStream>, TokenStream) {
        let rt = &self.rt;
        let fields = self.field_names(&self.program.games[gid]);
        let apply = |wide: bool, table: TokenStream, x: &Ident| match wide {
            true => quote!(#rt::native::Bits(#table.apply(#x.0))),
            false => quote!(#rt::native::Bits64(#table.apply64(#x.0))),
        };
        if contexts.is_empty() && element.everywhere() {
            let Some((_, maps)) = &element.entries[0] else {
                unreachable!("a map that applies everywhere has its one context");
            };
            let mut parts = Vec::new();
            for (i, (map, x)) in maps.iter().zip(&fields).enumerate() {
                let Some((image, wide)) = map else {
                    parts.push(quote!(#x));
                    continue;
                };
                let table = format_ident!("{}_{i}", prefix.to_ascii_uppercase());
                let image = image.iter().map(|&b| Literal::u32_unsuffixed(b));
                statics.push(quote! {
                    static #table: ::std::sync::LazyLock<#rt::native::BitPermutation> =
                        ::std::sync::LazyLock::new(|| #rt::native::BitPermutation::new(&[#(#image),*]));
                });
                parts.push(apply(*wide, quote!(#table), x));
            }
            return (None, self.pos_pattern(gid, &parts));
        }
        // One table for every context: where the element applies, the image's context and
        // a map of each set field it maps (the identity in contexts where it keeps the set).
        let mapped: Vec<usize> = (0..fields.len())
            .filter(|&i| element.maps_field(i))
            .collect();
        // How many bits field `i` maps (its element type's values), and whether it takes
        // 128 bits.
        let size = |i: usize| {
            let maps = element.entries.iter().flatten();
            let found = maps.filter_map(|(_, maps)| maps[i].as_ref()).next();
            let Some((map, wide)) = found else {
                unreachable!("a mapped field has a map in some context")
            };
            (map.len() as u32, *wide)
        };
        let entries = element.entries.iter().map(|entry| match entry {
            None => quote!(::std::option::Option::None),
            Some((to, maps)) => {
                let perms = mapped.iter().map(|&i| {
                    let image: Vec<u32> = match &maps[i] {
                        Some((image, _)) => image.clone(),
                        None => (0..size(i).0).collect(),
                    };
                    let image = image.iter().map(|&b| Literal::u32_unsuffixed(b));
                    quote!(&[#(#image),*])
                });
                let to = Literal::usize_unsuffixed(*to);
                quote!(::std::option::Option::Some((#to, &[#(#perms),*])))
            }
        });
        let table = format_ident!("{}", prefix.to_ascii_uppercase());
        statics.push(quote! {
            static #table: ::std::sync::LazyLock<#rt::native::ContextPermutations> =
                ::std::sync::LazyLock::new(|| #rt::native::ContextPermutations::new(&[#(#entries),*]));
        });
        let images: Vec<Ident> = (0..mapped.len())
            .map(|j| format_ident!("image_{j}"))
            .collect();
        let sets = mapped.iter().map(|&i| {
            let x = &fields[i];
            match size(i).1 {
                true => quote!(#x.0),
                false => quote!(u128::from(#x.0)),
            }
        });
        let mut parts = Vec::new();
        for (i, x) in fields.iter().enumerate() {
            if let Some(k) = contexts.iter().position(|(f, _)| *f == i) {
                let values = self.context_table(gid, tag, k);
                parts.push(quote!(#values[to]));
            } else if let Some(j) = mapped.iter().position(|&f| f == i) {
                let image = &images[j];
                parts.push(match size(i).1 {
                    true => quote!(#rt::native::Bits(#image)),
                    false => quote!(#rt::native::Bits64(#image as u64)),
                });
            } else {
                parts.push(quote!(#x));
            }
        }
        let (to, context) = match contexts.is_empty() {
            true => (quote!(_), quote!(0)),
            false => (quote!(to), quote!(context)),
        };
        let guard = quote! {
            ::std::option::Option::Some((#to, [#(#images),*])) = #table.apply(#context, [#(#sets),*])
        };
        (Some(guard), self.pos_pattern(gid, &parts))
    }

    /// The name of the table of the stored values of the `k`th context field, by context
    /// (`tag` tells the found symmetries' contexts from the declared maps').
    fn context_table(&self, gid: usize, tag: &str, k: usize) -> Ident {
        let name = &self.names.games[gid].symmetry;
        format_ident!("{}_{tag}CONTEXT_{k}", name.to_string().to_ascii_uppercase())
    }

    /// `let context = ...;`: the rank of a position's context (nothing without contexts).
    fn context_rank(&self, gid: usize, contexts: &[ContextField], fields: &[Ident]) -> TokenStream {
        if contexts.is_empty() {
            return quote!();
        }
        let mut rank: Option<TokenStream> = None;
        for &(f, ref values) in contexts {
            let x = &fields[f];
            let count = Literal::usize_unsuffixed(values.len());
            let digit = match &self.program.games[gid].fields[f].ty {
                FieldTy::Range(0, _) => quote!(#x as usize),
                FieldTy::Range(lo, _) => {
                    let lo = Literal::i64_unsuffixed(*lo);
                    quote!((#x as i64 - #lo) as usize)
                }
                _ => quote!(#x as usize),
            };
            rank = Some(match rank {
                None => digit,
                Some(rank) => quote!((#rank) * #count + #digit),
            });
        }
        quote!(let context: usize = #rank;)
    }

    /// The tables of the context fields' stored values, by context.
    fn context_values(
        &self,
        gid: usize,
        tag: &str,
        contexts: &[ContextField],
        statics: &mut Vec<TokenStream>,
    ) {
        let game = &self.program.games[gid];
        for (k, &(f, _)) in contexts.iter().enumerate() {
            let ty = self.stored_ty(&game.fields[f].ty, &self.layout.games[gid].fields[f]);
            let values = (0..contexts.count()).map(|rank| match &contexts.choice(rank)[k] {
                Val::Bool(b) => quote!(#b),
                Val::Int(i) => {
                    let i = Literal::i64_unsuffixed(*i);
                    quote!(#i)
                }
                _ => unreachable!("context fields are numbers or booleans"),
            });
            let count = contexts.count();
            let table = self.context_table(gid, tag, k);
            statics.push(quote!(static #table: [#ty; #count] = [#(#values),*];));
        }
    }

    /// For each field of a game packed as bits, how many values its elements take, and
    /// whether it takes 128 bits.
    fn set_sizes(&self, gid: usize, game: &Game) -> Vec<Option<(usize, bool)>> {
        (0..game.fields.len())
            .map(|i| {
                let (values, wide) = self.stored_elements(gid, i)?;
                Some((values.len(), wide))
            })
            .collect()
    }

    /// The value of each bit of field `i` of game `gid`, where it is a set packed as bits,
    /// and whether it takes 128 bits.
    fn stored_elements(&self, gid: usize, i: usize) -> Option<(Vec<Val>, bool)> {
        let FieldTy::Set(inner) = &self.program.games[gid].fields[i].ty else {
            return None;
        };
        match &self.layout.games[gid].fields[i] {
            Packed::Bits(_, wide) | Packed::Ranks(_, wide) => {
                Some((inner.values(&self.program.types, 128)?, *wide))
            }
            Packed::Domain(values, wide) => Some((values.to_vec(), *wide)),
            _ => None,
        }
    }

    /// The values of field `i` of game `gid` when it can be part of a context: a range or
    /// `bool` stored as a number or `bool`, with few values.
    fn context_field(&self, gid: usize, i: usize) -> Option<Vec<Val>> {
        let packed = &self.layout.games[gid].fields[i];
        let game = &self.program.games[gid];
        match packed {
            Packed::Plain | Packed::Narrow(_) => {
                crate::opt::images::context_values(self.program, game, i)
            }
            _ => None,
        }
    }

    /// The game's contexts, and each of its symmetries as bit maps where it is one (from
    /// the tables of `opt/images.rs`): none where a context field is not kept as a number
    /// or `bool`.
    fn bit_symmetries(
        &self,
        gid: usize,
        game: &Game,
    ) -> (Vec<ContextField>, Vec<Option<BitSymmetry>>) {
        let none = || (Vec::new(), game.symmetries.iter().map(|_| None).collect());
        let Some(tables) = &game.symmetry_tables else {
            return none();
        };
        let plain = |f: usize| {
            matches!(
                self.layout.games[gid].fields[f],
                Packed::Plain | Packed::Narrow(_)
            )
        };
        if !tables.context.iter().all(|(f, _)| plain(*f)) {
            return none();
        }
        let contexts = tables.context.clone();
        let maps = (tables.maps.iter())
            .map(|table| self.bit_symmetry(gid, table.as_ref()?))
            .collect();
        (contexts, maps)
    }

    /// A map's table as bit maps of the set fields in every context; `None` when it moves
    /// no bit, or a set field's bits hold an element the table does not.
    fn bit_symmetry(&self, gid: usize, table: &SymmetryTable) -> Option<BitSymmetry> {
        let mut entries = Vec::with_capacity(table.entries.len());
        for entry in &table.entries {
            let Some((to, images)) = entry else {
                entries.push(None);
                continue;
            };
            let mut maps = Vec::with_capacity(images.len());
            for (i, images) in images.iter().enumerate() {
                let Some(images) = images else {
                    maps.push(None);
                    continue;
                };
                let (values, wide) = self.stored_elements(gid, i)?;
                // Undefined where the map fails or leaves the set's bits.
                let bits = (values.iter())
                    .map(|v| {
                        let image = images.get(v)?.as_ref();
                        let rank = image.and_then(|w| values.iter().position(|v| v == w));
                        Some(rank.map_or(UNDEFINED, |r| r as u32))
                    })
                    .collect::<Option<Vec<u32>>>()?;
                maps.push(moved((bits, wide)));
            }
            entries.push(Some((*to, maps)));
        }
        let symmetry = BitSymmetry { entries };
        (symmetry.entries.iter().any(Option::is_some) && !symmetry.is_identity())
            .then_some(symmetry)
    }
}
