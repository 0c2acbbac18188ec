//! Every diagnostic code, each documented once. docs/LANGUAGE.md's table of codes lists
//! them all (a test holds the two together).

/// A stable diagnostic code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// E0001: a syntax error.
    Syntax,
    /// E0002: an expression nested too deeply.
    TooDeep,
    /// E0101: an unknown name (or variant).
    UnknownName,
    /// E0102: an unknown game or function.
    UnknownCallee,
    /// E0103: an unknown type.
    UnknownType,
    /// E0104: a name defined more than once.
    Duplicate,
    /// E0105: a binder that would shadow an earlier name (or a field declared twice).
    Shadowing,
    /// E0201: the wrong number of arguments.
    Arity,
    /// E0202: a type mismatch.
    TypeMismatch,
    /// E0203: a value out of range.
    OutOfRange,
    /// E0204: an empty range type.
    EmptyRangeType,
    /// E0205: a `match` without an arm for some variant.
    MissingArm,
    /// E0206: a `match` with two arms for one variant.
    DuplicateArm,
    /// E0301: an infinite domain.
    InfiniteDomain,
    /// E0401: a recursive `fn`.
    Recursion,
    /// E0501: a constant that cannot be evaluated.
    ConstEval,
    /// E0502: a position or function call in a constant.
    NotConstant,
    /// E0601: an unknown value name in a query.
    UnknownValue,
    /// E0602: a malformed query.
    BadQuery,
    /// E0701: an invalid octal code.
    BadOctal,
    /// E0801: a value or compound defined for impartial games only, asked of a partizan
    /// position (or an impartial game moving to one).
    Partizan,
}

impl ErrorCode {
    /// Every code, in order.
    pub const ALL: [ErrorCode; 21] = [
        ErrorCode::Syntax,
        ErrorCode::TooDeep,
        ErrorCode::UnknownName,
        ErrorCode::UnknownCallee,
        ErrorCode::UnknownType,
        ErrorCode::Duplicate,
        ErrorCode::Shadowing,
        ErrorCode::Arity,
        ErrorCode::TypeMismatch,
        ErrorCode::OutOfRange,
        ErrorCode::EmptyRangeType,
        ErrorCode::MissingArm,
        ErrorCode::DuplicateArm,
        ErrorCode::InfiniteDomain,
        ErrorCode::Recursion,
        ErrorCode::ConstEval,
        ErrorCode::NotConstant,
        ErrorCode::UnknownValue,
        ErrorCode::BadQuery,
        ErrorCode::BadOctal,
        ErrorCode::Partizan,
    ];

    /// The code as printed, e.g. `E0202`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Syntax => "E0001",
            ErrorCode::TooDeep => "E0002",
            ErrorCode::UnknownName => "E0101",
            ErrorCode::UnknownCallee => "E0102",
            ErrorCode::UnknownType => "E0103",
            ErrorCode::Duplicate => "E0104",
            ErrorCode::Shadowing => "E0105",
            ErrorCode::Arity => "E0201",
            ErrorCode::TypeMismatch => "E0202",
            ErrorCode::OutOfRange => "E0203",
            ErrorCode::EmptyRangeType => "E0204",
            ErrorCode::MissingArm => "E0205",
            ErrorCode::DuplicateArm => "E0206",
            ErrorCode::InfiniteDomain => "E0301",
            ErrorCode::Recursion => "E0401",
            ErrorCode::ConstEval => "E0501",
            ErrorCode::NotConstant => "E0502",
            ErrorCode::UnknownValue => "E0601",
            ErrorCode::BadQuery => "E0602",
            ErrorCode::BadOctal => "E0701",
            ErrorCode::Partizan => "E0801",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
