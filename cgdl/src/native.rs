//! Native solvers: a generated crate per (source, compiler version), built once in release
//! mode in a cache directory and reused while nothing changes.

use std::hash::Hash;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The workspace lockfile, so that a solver builds offline with the exact dependency
/// versions `cgdl` itself was built with.
const LOCKFILE: &str = include_str!("../../Cargo.lock");

/// Where solvers are cached: `$CGDL_CACHE_DIR`, else `$XDG_CACHE_HOME/cgdl`, else
/// `~/.cache/cgdl`, else the temporary directory.
/// An empty variable counts as unset (so that it never means the current directory).
pub fn cache_dir() -> PathBuf {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var("CGDL_CACHE_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = var("XDG_CACHE_HOME") {
        return PathBuf::from(dir).join("cgdl");
    }
    if let Some(home) = var("HOME") {
        return PathBuf::from(home).join(".cache").join("cgdl");
    }
    std::env::temp_dir().join("cgdl-cache")
}

/// The runtime crate's sources: `$CGDL_RUNTIME_PATH`, else the `runtime/` folder next to
/// the sources `cgdl` was built from.
fn runtime_dir() -> Result<PathBuf, String> {
    let dir = std::env::var_os("CGDL_RUNTIME_PATH")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime"));
    let missing = || {
        format!(
            "native code needs the cgdl-runtime sources, expected at {}; set CGDL_RUNTIME_PATH to the repository's runtime/ folder, or run with --interp",
            dir.display()
        )
    };
    let dir = dir.canonicalize().map_err(|_| missing())?;
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap_or_default();
    if !manifest.contains("name = \"cgdl-runtime\"") {
        return Err(missing());
    }
    Ok(dir)
}

/// The hash of the solver cache: xxh3's 128 bits (a solver's key and its checksum; a
/// cached solver is checked on every run, a few megabytes in about a millisecond).
type CacheHasher = xxhash_rust::xxh3::Xxh3;

/// A checksum of a built solver, kept beside it so that a damaged cache entry (truncated,
/// overwritten) is rebuilt instead of run.
fn checksum(path: &Path) -> Option<String> {
    // Streamed: a buffer the size of the binary costs more in page faults than the hash.
    let mut sink = HashSink(CacheHasher::new());
    let len = std::io::copy(&mut std::fs::File::open(path).ok()?, &mut sink).ok()?;
    Some(format!("xxh3-{:032x} {len}", sink.0.digest128()))
}

/// A writer that hashes what it is given (for [`std::io::copy`]).
struct HashSink(CacheHasher);

impl std::io::Write for HashSink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The file that holds `binary`'s checksum.
fn checksum_file(binary: &Path) -> PathBuf {
    binary.with_extension("checksum")
}

/// Whether `binary` is a cached solver whose checksum matches the one recorded at build.
fn cached_intact(binary: &Path) -> bool {
    binary.is_file()
        && matches!(
            (checksum(binary), std::fs::read_to_string(checksum_file(binary))),
            (Some(actual), Ok(recorded)) if actual == recorded.trim()
        )
}

/// How solvers are optimised: with one codegen unit the runtime's generic solver, the
/// generated rules and the kernels are inlined together (Kayles to 100,000 went from 19 s
/// with cargo's default release profile to under 5 s; a solver still builds in about two
/// seconds, where link-time optimisation took six for no further gain).
const RELEASE_PROFILE: &str = "[profile.release]\ncodegen-units = 1\n";

/// The flags a solver is compiled with: for the machine it runs on, which built it (popcount
/// for sets, wide vectors for nim-sequences; 4×5 degenerate dots went from 13.5 s to 11.1
/// s). A user's own `RUSTFLAGS` (or `CARGO_ENCODED_RUSTFLAGS`) replace them.
const SOLVER_RUSTFLAGS: &str = "-Ctarget-cpu=native";

/// The rustflags the solver is built with: the user's, if set, else [`SOLVER_RUSTFLAGS`].
fn solver_rustflags() -> Option<String> {
    let user = |name| std::env::var(name).ok().filter(|v: &String| !v.is_empty());
    match (user("CARGO_ENCODED_RUSTFLAGS"), user("RUSTFLAGS")) {
        (None, None) => Some(SOLVER_RUSTFLAGS.to_string()),
        _ => None,
    }
}

/// What identifies this machine's processor (a solver built for `target-cpu=native` runs
/// only where its features are): its feature flags, on Linux.
fn cpu_signature() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    (info.lines())
        .find(|l| l.starts_with("flags") || l.starts_with("Features"))
        .unwrap_or("")
        .to_string()
}

/// The cache key: what every solver is built against (`setup`, [`setup_digest`]), the
/// generated code and the file name a standalone solver shows.
fn key(code: &str, file: Option<&str>, setup: u128) -> String {
    let mut h = CacheHasher::new();
    setup.hash(&mut h);
    code.hash(&mut h);
    file.hash(&mut h);
    format!("{:032x}", h.digest128())
}

/// The runtime's folder ([`runtime_dir`]) and the digest of what solvers are built against
/// ([`setup_digest`]): computed once a process, which reads every runtime source.
fn setup() -> Result<&'static (PathBuf, u128), String> {
    static SETUP: std::sync::OnceLock<Result<(PathBuf, u128), String>> = std::sync::OnceLock::new();
    let found = SETUP.get_or_init(|| runtime_dir().map(|dir| (dir.clone(), setup_digest(&dir))));
    found.as_ref().map_err(String::clone)
}

/// What every solver's key holds besides its code, hashed: the compiler version, the
/// release profile, the flags and the processor it builds for, and the runtime's sources
/// (so that a changed runtime is never linked stale).
fn setup_digest(runtime: &Path) -> u128 {
    let mut h = CacheHasher::new();
    env!("CARGO_PKG_VERSION").hash(&mut h);
    RELEASE_PROFILE.hash(&mut h);
    // The flags: the user's, or ours (so that changing ours rebuilds too).
    for name in ["CARGO_ENCODED_RUSTFLAGS", "RUSTFLAGS"] {
        std::env::var(name).unwrap_or_default().hash(&mut h);
    }
    solver_rustflags().hash(&mut h);
    cpu_signature().hash(&mut h);
    runtime.hash(&mut h);
    let mut files = Vec::new();
    source_files(&runtime.join("src"), &mut files);
    files.push(runtime.join("Cargo.toml"));
    files.sort();
    for f in files {
        f.hash(&mut h);
        std::fs::read(&f).unwrap_or_default().hash(&mut h);
    }
    h.digest128()
}

/// What identifies the running `cgdl`, whose compiler made a source's code: its
/// executable's path, size and modification time (a rebuilt or reinstalled `cgdl` is
/// another compiler; its version is in [`setup_digest`]). `None` where the executable
/// cannot be found.
fn compiler_identity() -> Option<(PathBuf, u64, std::time::SystemTime)> {
    let exe = std::env::current_exe().ok()?;
    let meta = std::fs::metadata(&exe).ok()?;
    Some((exe, meta.len(), meta.modified().ok()?))
}

/// Where the record of `source`'s solver is kept: a file named by the hash of the source,
/// the running compiler ([`compiler_identity`]) and what every solver is built against
/// ([`setup_digest`]), holding the key of the solver that compiler made of the source.
fn source_record(source: &str) -> Option<PathBuf> {
    let mut h = CacheHasher::new();
    setup().ok()?.1.hash(&mut h);
    compiler_identity()?.hash(&mut h);
    source.hash(&mut h);
    Some(
        cache_dir()
            .join("sources")
            .join(format!("{:032x}", h.digest128())),
    )
}

/// The cached solver this compiler built for `source` before, if it is recorded and
/// intact: `cgdl run` then starts it without checking the file and generating its code
/// again (both are functions of the source and the compiler, and a file that ran had no
/// errors), which is most of a short solve's time.
pub fn remembered_solver(source: &str) -> Option<PathBuf> {
    let record = std::fs::read_to_string(source_record(source)?).ok()?;
    let key = record.trim();
    if key.is_empty() || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let binary = solver_path(&cache_dir(), key);
    cached_intact(&binary).then_some(binary)
}

/// Records that `binary` (a solver in the cache, without a built-in file name) is
/// `source`'s, for [`remembered_solver`]. A record that cannot be written is only a
/// missed shortcut: the next run checks the file again.
pub fn remember_solver(source: &str, binary: &Path) {
    let Some(key) = (binary.file_name())
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_prefix("cgdl-solver-"))
    else {
        return;
    };
    let Some(record) = source_record(source) else {
        return;
    };
    let Some(dir) = record.parent() else {
        return;
    };
    // Written whole under another name, then renamed: a reader sees the old record or the
    // new one, never a part.
    let partial = record.with_extension(format!("partial-{}", std::process::id()));
    let written = std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&partial, key))
        .and_then(|()| std::fs::rename(&partial, &record));
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
}

/// Every file under `dir`, at any depth.
fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            source_files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Whether a build says what it is doing on stderr (a spinner or a note).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quiet {
    /// It says so (the run waits for it).
    No,
    /// It says nothing (the interpreter answers meanwhile).
    Yes,
}

/// Where the solver of `code` is (or would be) built: its crate, the shared target folder
/// and the binary.
struct Place {
    name: String,
    crate_dir: PathBuf,
    target: PathBuf,
    binary: PathBuf,
}

fn place(code: &str, file: Option<&str>) -> Result<Place, String> {
    let key = key(code, file, setup()?.1);
    let cache = cache_dir();
    Ok(Place {
        binary: solver_path(&cache, &key),
        crate_dir: cache.join("solvers").join(&key),
        target: cache.join("target"),
        name: format!("cgdl-solver-{key}"),
    })
}

/// Where the solver of cache key `key` is built in the cache `cache`.
fn solver_path(cache: &Path, key: &str) -> PathBuf {
    (cache.join("target").join("release")).join(format!("cgdl-solver-{key}"))
}

/// The cached solver of `code`, if it is built and intact.
pub fn cached_solver(code: &str, file: Option<&str>) -> Option<PathBuf> {
    let place = place(code, file).ok()?;
    cached_intact(&place.binary).then_some(place.binary)
}

/// The path of a built solver for `code` (a generated module), building it if needed.
/// `label` names the file in progress messages; `file`, when given, is the name the solver
/// shows in errors and JSON when run on its own (`cgdl build`).
pub fn solver_binary(
    code: &str,
    label: &str,
    file: Option<&str>,
    quiet: Quiet,
) -> Result<PathBuf, String> {
    let runtime = &setup()?.0;
    let Place {
        name,
        crate_dir,
        target,
        binary,
    } = place(code, file)?;
    let cache = cache_dir();
    if cached_intact(&binary) {
        return Ok(binary);
    }
    let src = crate_dir.join("src");
    std::fs::create_dir_all(&src)
        .map_err(|e| format!("cannot create the solver cache at {}: {e}", src.display()))?;
    let manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\ncgdl-runtime = {{ path = {:?}, features = [\"progress\", \"svg\", \"cli\", \"tiered\"] }}\n\n[workspace]\n\n{RELEASE_PROFILE}",
        runtime.display().to_string()
    );
    let main = format!(
        "{code}\nfn main() -> ::std::process::ExitCode {{\n    ::cgdl_runtime::driver::native_main(&Universe, QUERIES, plan, position_from_datum, {:?})\n}}\n",
        file.unwrap_or("")
    );
    for (path, text) in [
        (crate_dir.join("Cargo.toml"), manifest.as_str()),
        (crate_dir.join("Cargo.lock"), LOCKFILE),
        (src.join("main.rs"), main.as_str()),
    ] {
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let spinner = (quiet == Quiet::No && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_message(format!(
            "building the native solver for {label} (once; cached in {})",
            cache.display()
        ));
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        bar
    });
    if spinner.is_none() && quiet == Quiet::No {
        cgdl::runtime::driver::note(&format!(
            "cgdl: building the native solver for {label} (once; cached in {})",
            cache.display()
        ));
    }
    // A binary with no checksum beside it was built by a cargo whose `cgdl` did not wait
    // for it (the interpreter answered first): cargo rebuilds what is not up to date, and
    // the checksum is written below.
    if binary.exists() && checksum_file(&binary).exists() {
        // Damaged: cargo would take it (and the copy it links from) as up to date.
        let _ = cargo(&crate_dir, &target, &["clean", "--release", "-p", &name]);
        let _ = std::fs::remove_file(&binary);
    }
    let mut result = cargo_build(&crate_dir, &target, &binary);
    if result.is_err() {
        // A damaged build of the runtime (a truncated rlib, say) fails every solver, with
        // rustc errors that look like the generated code's: build it again once before
        // giving up.
        let _ = cargo(
            &crate_dir,
            &target,
            &["clean", "--release", "-p", "cgdl-runtime"],
        );
        result = cargo_build(&crate_dir, &target, &binary);
    }
    if let Some(bar) = spinner {
        bar.finish_and_clear();
    }
    result.map_err(|e| match e {
        BuildError::Generated(m) | BuildError::Setup(m) => m,
    })?;
    let sum = checksum(&binary).ok_or_else(|| format!("cannot read {}", binary.display()))?;
    let sum_file = checksum_file(&binary);
    std::fs::write(&sum_file, sum)
        .map_err(|e| format!("cannot write {}: {e}", sum_file.display()))?;
    Ok(binary)
}

/// Runs cargo with `args` on the solver crate in `crate_dir`.
fn cargo(crate_dir: &Path, target: &Path, args: &[&str]) -> Result<std::process::Output, String> {
    let program = std::env::var_os("CARGO")
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(&program);
    if let Some(flags) = solver_rustflags() {
        command.env("CARGO_ENCODED_RUSTFLAGS", flags);
    }
    command
        .args(args)
        .arg("--manifest-path")
        .arg(crate_dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                format!(
                    "native code needs cargo, the Rust build tool ({} was not found): install Rust (https://rustup.rs), or run with --interp",
                    PathBuf::from(&program).display()
                )
            } else {
                format!("cannot run cargo ({}): {e}; or run with --interp", PathBuf::from(&program).display())
            }
        })
}

/// Why a solver did not build.
enum BuildError {
    /// rustc rejected the generated code: a compiler bug.
    Generated(String),
    /// Anything else: the toolchain, the runtime sources, the cache.
    Setup(String),
}

/// Builds the solver crate.
fn cargo_build(crate_dir: &Path, target: &Path, binary: &Path) -> Result<(), BuildError> {
    let output = cargo(
        crate_dir,
        target,
        &["build", "--release", "--offline", "--quiet"],
    )
    .map_err(BuildError::Setup)?;
    if output.status.success() && binary.is_file() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let tail: Vec<&str> = stderr.lines().take(30).collect();
    let main_rs = crate_dir.join("src").join("main.rs");
    // rustc's errors in the generated module point at its main.rs.
    let in_generated_code = stderr.contains("error[E") && stderr.contains("src/main.rs");
    Err(if in_generated_code {
        BuildError::Generated(format!(
            "the generated solver failed to build. This is a bug in the cgdl compiler, not in your file; please report it.\n\
             The generated code is at {}\ncargo said:\n{}",
            main_rs.display(),
            tail.join("\n")
        ))
    } else {
        BuildError::Setup(format!(
            "cannot build the native solver ({}): check the Rust toolchain (cargo, CARGO), \
             CGDL_RUNTIME_PATH and the cache (CGDL_CACHE_DIR, now {}), or run with --interp\n\
             cargo said:\n{}",
            output.status,
            target.parent().unwrap_or(target).display(),
            if tail.is_empty() {
                "(nothing)".to_string()
            } else {
                tail.join("\n")
            }
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A change to any runtime source file, nested ones included, makes a new cache key,
    /// so a solver is never linked against a stale runtime.
    #[test]
    fn cache_key_covers_nested_runtime_sources() {
        let root = std::env::temp_dir().join(format!("cgdl-key-test-{}", std::process::id()));
        let nested = root.join("src").join("native");
        std::fs::create_dir_all(&nested).expect("temp dir");
        std::fs::write(root.join("Cargo.toml"), "[package]").expect("write");
        std::fs::write(root.join("src").join("lib.rs"), "mod native;").expect("write");
        std::fs::write(nested.join("set.rs"), "// one").expect("write");
        let key_of = |code, file| key(code, file, setup_digest(&root));
        let before = key_of("code", None);
        assert_eq!(key_of("code", None), before, "the key is deterministic");
        std::fs::write(nested.join("set.rs"), "// two").expect("write");
        let after = key_of("code", None);
        assert_ne!(after, before);
        assert_ne!(key_of("other code", None), after);
        assert_ne!(
            key_of("code", Some("f.cgdl")),
            after,
            "a built-in file name"
        );
        std::fs::remove_dir_all(&root).expect("clean up");
    }
}
