//! Tests of `cgdl_compiler::ir::shape`.

use cgdl_compiler::ast::Span;
use cgdl_compiler::ir::*;
use std::hash::BuildHasher;

fn n(slot: usize) -> IExpr {
    IExpr::from(IExprKind::Var(Var {
        slot: VarId::new(slot),
        name: "n".into(),
        ty: Ty::Nat,
    }))
}

fn at(start: usize) -> Span {
    Span {
        start,
        end: start + 1,
    }
}

/// Written at two places, one shape (and one hash); another operator, operand or name,
/// another shape.
#[test]
fn shapes_forget_spans_only() {
    let one = IExpr::bin(
        Op::Add,
        n(0),
        IExpr::from(IExprKind::Lit(Val::Int(1))),
        at(3),
    );
    let two = IExpr::bin(
        Op::Add,
        n(0),
        IExpr::from(IExprKind::Lit(Val::Int(1))),
        at(40),
    );
    assert_ne!(one, two);
    assert_eq!(Shape::of(&one), Shape::of(&two));
    let h = std::collections::hash_map::RandomState::new();
    let hash = |s: &Shape| h.hash_one(s);
    assert_eq!(hash(&Shape::of(&one)), hash(&Shape::of(&two)));
    let others = [
        IExpr::bin(
            Op::Sub,
            n(0),
            IExpr::from(IExprKind::Lit(Val::Int(1))),
            at(3),
        ),
        IExpr::bin(
            Op::Add,
            n(1),
            IExpr::from(IExprKind::Lit(Val::Int(1))),
            at(3),
        ),
        IExpr::bin(
            Op::Add,
            n(0),
            IExpr::from(IExprKind::Lit(Val::Int(2))),
            at(3),
        ),
    ];
    for other in &others {
        assert_ne!(Shape::of(&one), Shape::of(other));
    }
}

/// `{x for x in s where x > 2}` (`s` in slot 0) with `x` in slot `x`.
fn above_two(x: usize, s: usize) -> IExpr {
    let var = |slot, name: &str, ty| {
        IExpr::from(IExprKind::Var(Var {
            slot: VarId::new(slot),
            name: name.into(),
            ty,
        }))
    };
    let elem = Ty::Nat;
    let bound = Var {
        slot: VarId::new(x),
        name: "x".into(),
        ty: elem.clone(),
    };
    let above = IExpr::bin(
        Op::Gt,
        var(x, "x", elem.clone()),
        IExpr::from(IExprKind::Lit(Val::Int(2))),
        at(x),
    );
    let set = Ty::Set(Box::new(elem.clone()));
    IExpr::from(IExprKind::Compr {
        elem: Box::new(var(x, "x", elem)),
        clauses: vec![
            IClause::Bind(vec![bound], var(s, "s", set)),
            IClause::Cond(above),
        ],
    })
}

/// The names bound inside an expression are its own: written twice with its name in
/// two slots (two scopes side by side), one shape; reading another set, another.
#[test]
fn shapes_forget_the_slots_of_their_own_names() {
    assert_ne!(above_two(1, 0), above_two(2, 0));
    assert_eq!(Shape::of(&above_two(1, 0)), Shape::of(&above_two(2, 0)));
    assert_ne!(Shape::of(&above_two(1, 0)), Shape::of(&above_two(1, 3)));
}
