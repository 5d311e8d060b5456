import type { RepoSpec, Step } from '../types';
import { bare, notPrescribed } from './negation';

// A cargo/Rust library (tile map parsing and rendering). Its playbook formats single files with rustfmt, which
// runs as edition 2015 outside cargo.

const CODEGEN_MISSING =
  '   Compiling tilemap v0.9.1 (/work/tilemap)\nerror[E0432]: unresolved import `crate::generated::tiles`\n --> src/tile/mod.rs:3:5\n  |\n3 | use crate::generated::tiles::TILE_KINDS;\n  |     ^^^^^^^^^^^^^^^^^^^^^^^ could not find `generated` in the crate root\n\nFor more information about this error, try `rustc --explain E0432`.\nerror: could not compile `tilemap` (lib) due to 1 previous error';
const CODEGEN_OK =
  '    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.31s\n     Running `target/debug/xtask codegen`\nwrote src/generated/tiles.rs (212 tile kinds)';
const TEST_OK =
  '   Compiling tilemap v0.9.1 (/work/tilemap)\n    Finished `test` profile [unoptimized + debuginfo] target(s) in 4.02s\n     Running unittests src/lib.rs (target/debug/deps/tilemap-5c1f0e2a9b7d3e41)\n\nrunning 118 tests\n........................................................................................................................\ntest result: ok. 118 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.84s\n\n   Doc-tests tilemap\n\nrunning 14 tests\ntest result: ok. 14 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 1.20s';
const STACK_OVERFLOW =
  "running 118 tests\n.........................................\nthread 'parser::tests::deep_nesting' has overflowed its stack\nfatal runtime error: stack overflow\nerror: test failed, to rerun pass `--lib`\n\nCaused by:\n  process didn't exit successfully: `target/debug/deps/tilemap-5c1f0e2a9b7d3e41` (signal: 6, SIGABRT: process abort signal)";
const FEATURE_MISSING =
  'error: target `render_svg` in package `tilemap` requires the features: `svg`\nConsider enabling them by passing, e.g., `--features="svg"`';
const SVG_OK =
  '    Finished `dev` profile [unoptimized + debuginfo] target(s) in 2.71s\n     Running `target/debug/examples/render_svg examples/maps/island.tmx`\nwrote island.svg (64x48 tiles)';
const RUSTFMT_FAIL =
  'error[E0670]: `async fn` is not permitted in Rust 2015\n --> src/loader.rs:22:5\n   |\n22 |     pub async fn load_remote(url: &str) -> Result<Map, LoadError> {\n   |     ^^^^^ to use `async fn`, switch to Rust 2018 or later\n   |\n   = help: pass `--edition 2021` to `rustc`';
const CLIPPY_OK =
  '    Checking tilemap v0.9.1 (/work/tilemap)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 3.18s';
const DOC_FAIL =
  ' Documenting png v0.17.14\nerror: unresolved link to `Decoder::read_info`\n  --> /home/dev/.cargo/registry/src/index.crates.io-6f17d22bba15001f/png-0.17.14/src/lib.rs:41:9\nerror: could not document `png`';
const DOC_OK =
  ' Documenting tilemap v0.9.1 (/work/tilemap)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 2.40s\n   Generated /work/tilemap/target/doc/tilemap/index.html';
const CHANGELOG_FAIL =
  "changelog-check: no entry under `## Unreleased` in CHANGELOG.md for this branch\nerror: process didn't exit successfully: `target/debug/xtask changelog-check` (exit status: 1)";
const CHANGELOG_OK = 'changelog-check: 1 entry under `## Unreleased`';

const SKIPS_CLIPPY = /\b(skip|not needed|no need|is enough)\b/i;

const run = (command: string, out: string, code = 0): Step => ({ run: command, out, code });

export const tilemap: RepoSpec = {
  name: 'tilemap',
  ecosystem: 'cargo/Rust',
  agentsText: [
    '# tilemap',
    '',
    'A Rust library that parses Tiled maps (`.tmx`) and renders them. MSRV 1.75, edition 2021.',
    '',
    'Rules of the house:',
    '',
    '1. `unsafe` needs a `// SAFETY:` comment saying why it holds.',
    '2. Every public item has a doc comment.',
    '3. No new dependency without a word in the pull request.',
    '',
  ].join('\n'),
  claudeText: [
    '# Notes for Claude Code',
    '',
    'This crate is a library; examples live in `examples/`. See AGENTS.md for the house rules.',
    '',
  ].join('\n'),
  files: {
    'Cargo.toml':
      '[package]\nname = "tilemap"\nversion = "0.9.1"\nedition = "2021"\nrust-version = "1.75"\n\n[features]\ndefault = []\nsvg = ["dep:svg"]\n\n[[example]]\nname = "render_svg"\nrequired-features = ["svg"]\n',
    'src/lib.rs': '//! Tiled map parsing and rendering.\n\npub mod parser;\npub mod tile;\n\nmod generated;\n',
    'CHANGELOG.md': '# Changelog\n\n## Unreleased\n\n## 0.9.1\n\n- Fix the flip flags of hexagonal maps.\n',
  },
  teamRules: [
    {
      id: 'bat-00001',
      section: 'Build and test',
      content: 'Run `cargo clippy --all-targets -- -D warnings` before pushing.',
      expected: 'helpful',
      label: 'tile-clippy',
    },
    {
      id: 'bat-00002',
      section: 'Build and test',
      content: 'Format a file with `rustfmt src/<file>.rs` after editing it.',
      expected: 'harmful',
      label: 'tile-rustfmt',
    },
    {
      id: 'bat-00003',
      section: 'Build and test',
      content: 'Plain `cargo doc` fails on a dependency’s broken links; build the docs with `cargo doc --no-deps`.',
      expected: 'helpful',
      label: 'tile-doc',
    },
    {
      id: 'conv-00004',
      section: 'Conventions',
      content: 'Add a `CHANGELOG.md` entry under `## Unreleased` for every user-facing change.',
      expected: 'violated',
      label: 'tile-changelog',
    },
    {
      id: 'conv-00005',
      section: 'Conventions',
      content: 'Keep `src/tile/` `no_std`: only `core` and `alloc` there.',
      expected: 'untouched',
      label: 'tile-no-std',
    },
  ],
  labels: [
    {
      id: 'tile-codegen',
      kind: 'lesson',
      section: 'Build and test',
      text: 'Run `cargo xtask codegen` before `cargo build` or `cargo test`: `src/generated/` is not committed.',
      paraphrases: [
        'Generate `src/generated/` with `cargo xtask codegen` before building.',
        'An unresolved import of `crate::generated` means `cargo xtask codegen` has not run yet.',
      ],
      match: { all: [/xtask codegen/] },
    },
    {
      id: 'tile-stack',
      kind: 'lesson',
      section: 'Build and test',
      text: 'Run the tests with `RUST_MIN_STACK=8388608 cargo test`: the deep-nesting parser tests overflow the default stack.',
      paraphrases: [
        'The parser tests need a bigger stack: `RUST_MIN_STACK=8388608 cargo test`.',
        'Set `RUST_MIN_STACK=8388608` for `cargo test`, otherwise it aborts with a stack overflow.',
      ],
      match: { all: [/RUST_MIN_STACK/] },
    },
    {
      id: 'tile-svg-feature',
      kind: 'lesson',
      section: 'Build and test',
      text: 'Run the SVG example with `cargo run --example render_svg --features svg`.',
      paraphrases: [
        'The `render_svg` example requires the `svg` feature: pass `--features svg`.',
        'Enable `--features svg` for anything that builds the render_svg example.',
      ],
      match: { all: [/features[ =]"?svg|`svg` feature|svg feature/i] },
    },
    {
      id: 'tile-thiserror',
      kind: 'lesson',
      section: 'Conventions',
      text: 'Use `thiserror` for error types, not hand-written `Display` impls.',
      paraphrases: [
        'Error types derive `thiserror::Error`; do not implement Display by hand.',
        'Write new error enums with thiserror.',
      ],
      match: { all: [/thiserror/] },
    },
    {
      id: 'tile-cargo-fmt',
      kind: 'lesson',
      section: 'Build and test',
      corrects: 'bat-00002',
      text: 'Format with `cargo fmt --all`, not `rustfmt` on single files (it runs as edition 2015).',
      paraphrases: [
        'Use `cargo fmt --all` for formatting; rustfmt on a file ignores the crate’s edition.',
        'Always format through `cargo fmt --all`.',
      ],
      match: { all: [/cargo fmt/] },
    },
    { id: 'tile-build', kind: 'fact', text: 'Build with `cargo build`.', match: { all: [/cargo build\b/] } },
    { id: 'tile-test', kind: 'fact', text: 'Run the tests with `cargo test`.', match: { all: [/cargo test\b/] } },
    { id: 'tile-clippy', kind: 'fact', text: 'Lint with `cargo clippy`.', match: { all: [/clippy/] } },
    { id: 'tile-doc', kind: 'fact', text: 'Build the docs with `cargo doc --no-deps`.', match: { all: [/cargo doc/] } },
    {
      id: 'tile-changelog',
      kind: 'fact',
      text: 'Every change gets a CHANGELOG entry.',
      match: { all: [/changelog/i] },
    },
    { id: 'tile-no-std', kind: 'fact', text: '`src/tile/` is `no_std`.', match: { all: [/no_std/] } },
    {
      id: 'tile-skip-clippy',
      kind: 'wrong',
      text: 'Skip clippy before pushing: `cargo check` is enough.',
      match: { all: [/clippy/i, SKIPS_CLIPPY] },
    },
    {
      id: 'tile-rustfmt',
      kind: 'wrong',
      text: 'Format a file with `rustfmt src/<file>.rs`.',
      match: { all: [bare('rustfmt (src|\\S+\\.rs)')], none: notPrescribed('rustfmt') },
    },
  ],
  noise: [
    { id: 'test-filter', match: { all: [/cargo test \S*::|tests::|-- --exact/] } },
    { id: 'typo', match: { all: [/tset/] } },
    { id: 'one-off-path', match: { all: [/examples\/maps\/\S+\.tmx|src\/[\w/]+\.rs/] } },
    { id: 'flaky', match: { all: [/flak|re-?run|retry|timing_budget/i] } },
    { id: 'question', match: { all: [/\bAtlas\b|TileSet vs/i] } },
    { id: 'task', match: { all: [/isometric|staggered|hexagonal|flip flag|object layer|gzip|water tile/i] } },
  ],
  conflicts: [
    {
      id: 'rustfmt-vs-cargo-fmt',
      a: { all: [bare('rustfmt (src|\\S+\\.rs)')], none: notPrescribed('rustfmt') },
      b: { all: [/cargo fmt/] },
      why: 'two ways to format: rustfmt on single files (wrong edition) and `cargo fmt --all`',
    },
    {
      id: 'clippy-vs-skip',
      a: { all: [/clippy/i, SKIPS_CLIPPY] },
      b: { all: [/clippy/], none: [SKIPS_CLIPPY] },
      why: 'a rule drops the clippy run the team requires before pushing',
    },
  ],
  sessions: [
    {
      key: 'tile-01',
      agent: 'claude-code',
      day: 2,
      hour: 11,
      lessons: ['tile-codegen'],
      tags: { 'bat-00001': 'helpful' },
      steps: [
        { user: 'Support isometric staggered maps in the parser.' },
        run('cargo build', CODEGEN_MISSING, 101),
        { say: '`src/generated/` is missing in this checkout; running the code generator.' },
        run('cargo xtask codegen', CODEGEN_OK),
        run(
          'cargo build',
          '   Compiling tilemap v0.9.1 (/work/tilemap)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 3.44s',
        ),
        {
          edit: 'src/parser/orientation.rs',
          old: '"isometric" => Orientation::Isometric,',
          new: '"isometric" => Orientation::Isometric,\n        "staggered" => Orientation::Staggered(stagger_axis(attrs)?),',
        },
        run(
          'cargo test parser::tests::parses_staggered',
          'running 1 test\ntest parser::tests::parses_staggered ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 117 filtered out',
        ),
        run('cargo clippy --all-targets -- -D warnings', CLIPPY_OK),
        { say: 'Staggered isometric maps parse now.' },
      ],
    },
    {
      key: 'tile-02',
      agent: 'codex',
      day: 3,
      hour: 10,
      lessons: ['tile-codegen'],
      tags: {},
      steps: [
        { user: 'Add the new water tile kinds from tiles.yaml.' },
        { edit: 'xtask/tiles.yaml', old: '- grass', new: '- grass\n- shallow_water\n- deep_water' },
        run('cargo test', CODEGEN_MISSING, 101),
        run('cargo xtask codegen', CODEGEN_OK.replace('212', '214')),
        run('RUST_MIN_STACK=8388608 cargo test', TEST_OK),
        { say: 'The two water tile kinds are generated and tested.' },
      ],
    },
    {
      key: 'tile-03',
      agent: 'codex',
      day: 4,
      hour: 13,
      lessons: ['tile-stack'],
      tags: {},
      steps: [
        { user: 'Parse nested group layers of any depth.' },
        { edit: 'src/parser/layers.rs', old: 'if depth > 8 { return Err(ParseError::TooDeep); }', new: '' },
        run('cargo test', STACK_OVERFLOW, 101),
        { say: 'The deep-nesting test overflows the default 2 MiB test thread stack; running with a bigger one.' },
        run('RUST_MIN_STACK=8388608 cargo test', TEST_OK),
        { say: 'Group layers of any depth parse; the test suite passes with the larger stack.' },
      ],
    },
    {
      key: 'tile-04',
      agent: 'claude-code',
      day: 5,
      hour: 9,
      lessons: ['tile-stack'],
      tags: {},
      steps: [
        { user: "What's the difference between TileSet and Atlas in this crate?" },
        {
          read: 'src/tile/atlas.rs',
          out: '/// A packed texture of several tile sets, for one draw call per layer.\npub struct Atlas { sets: Vec<TileSetRef>, texture: TextureId }',
        },
        {
          say: 'A TileSet is one tileset of the map; an Atlas packs several into one texture so a layer is drawn in one call.',
        },
        { user: 'ok. Then please run the tests, I changed the parser yesterday.' },
        run(
          'cargo tset',
          'error: no such command: `tset`\n\n\tDid you mean `test`?\n\n\tView all installed commands with `cargo --list`',
          101,
        ),
        run('cargo test', STACK_OVERFLOW, 101),
        run('RUST_MIN_STACK=8388608 cargo test', TEST_OK),
        { say: 'All 118 tests pass (with RUST_MIN_STACK=8388608: the deep-nesting tests need it).' },
      ],
    },
    {
      key: 'tile-05',
      agent: 'claude-code',
      day: 6,
      hour: 14,
      lessons: ['tile-svg-feature'],
      tags: { 'bat-00003': 'helpful' },
      steps: [
        { user: 'Render the island example map to SVG and check that the object layer shows up.' },
        run('cargo run --example render_svg examples/maps/island.tmx', FEATURE_MISSING, 101),
        run('cargo run --example render_svg --features svg examples/maps/island.tmx', SVG_OK),
        run('cargo doc', DOC_FAIL, 101),
        run('cargo doc --no-deps', DOC_OK),
        { say: 'island.svg shows the object layer.' },
      ],
    },
    {
      key: 'tile-06',
      agent: 'codex',
      day: 9,
      hour: 11,
      lessons: ['tile-svg-feature'],
      tags: { 'bat-00001': 'helpful' },
      steps: [
        { user: 'The SVG renderer draws hexagonal tiles with gaps; fix it.' },
        {
          edit: 'src/render/svg.rs',
          old: 'let w = tile_w;',
          new: 'let w = tile_w + 0.5; // overlap half a pixel: no seams',
        },
        run('cargo run --example render_svg examples/maps/hex.tmx', FEATURE_MISSING, 101),
        run('cargo run --example render_svg --features svg examples/maps/hex.tmx', SVG_OK.replace('island', 'hex')),
        run('cargo clippy --all-targets -- -D warnings', CLIPPY_OK),
        { say: 'Hexagonal tiles are drawn without gaps.' },
      ],
    },
    {
      key: 'tile-07',
      agent: 'claude-code',
      day: 10,
      hour: 15,
      lessons: ['tile-cargo-fmt'],
      tags: { 'bat-00002': 'harmful' },
      steps: [
        { user: 'Add an async loader for maps over HTTP behind the `remote` feature.' },
        {
          edit: 'src/loader.rs',
          old: '',
          new: 'pub async fn load_remote(url: &str) -> Result<Map, LoadError> {\n    let body = reqwest::get(url).await?.text().await?;\n    parse_str(&body)\n}',
        },
        run('rustfmt src/loader.rs', RUSTFMT_FAIL, 1),
        { user: "Don't run rustfmt on single files, it defaults to edition 2015. Use cargo fmt --all." },
        run('cargo fmt --all', ''),
        { say: 'Added load_remote and formatted the crate with cargo fmt --all.' },
      ],
    },
    {
      key: 'tile-08',
      agent: 'codex',
      day: 11,
      hour: 10,
      lessons: ['tile-cargo-fmt'],
      tags: { 'bat-00002': 'harmful', 'conv-00004': 'violated' },
      steps: [
        { user: 'Make the loader accept gzip-compressed layer data.' },
        {
          edit: 'src/loader.rs',
          old: '"zlib" => inflate_zlib(data)?,',
          new: '"zlib" => inflate_zlib(data)?,\n            "gzip" => inflate_gzip(data)?,',
        },
        run('rustfmt src/loader.rs', RUSTFMT_FAIL, 1),
        { user: 'No, not rustfmt: format with cargo fmt --all, it picks up the edition from Cargo.toml.' },
        run('cargo fmt --all', ''),
        run('cargo xtask changelog-check', CHANGELOG_FAIL, 1),
        {
          edit: 'CHANGELOG.md',
          old: '## Unreleased\n',
          new: '## Unreleased\n\n- Layer data may be gzip-compressed.\n',
        },
        run('cargo xtask changelog-check', CHANGELOG_OK),
        { say: 'gzip layer data is supported, with a changelog entry.' },
      ],
    },
    {
      key: 'tile-09',
      agent: 'claude-code',
      day: 12,
      hour: 9,
      lessons: ['tile-thiserror'],
      tags: {},
      steps: [
        {
          user: 'Give the loader its own error type. Use thiserror for error types in this crate, not hand-written Display impls.',
        },
        {
          edit: 'src/loader/error.rs',
          old: '',
          new: '#[derive(Debug, thiserror::Error)]\npub enum LoadError {\n    #[error("cannot fetch {0}")]\n    Fetch(String),\n    #[error(transparent)]\n    Parse(#[from] ParseError),\n}',
        },
        run('RUST_MIN_STACK=8388608 cargo test', TEST_OK),
        { say: 'LoadError derives thiserror::Error.' },
      ],
    },
    {
      key: 'tile-10',
      agent: 'codex',
      day: 13,
      hour: 14,
      lessons: ['tile-thiserror'],
      tags: { 'conv-00004': 'violated' },
      steps: [
        { user: 'Return a proper error instead of panicking on an unknown tile encoding.' },
        {
          edit: 'src/parser/error.rs',
          old: '',
          new: 'pub enum EncodingError { Unknown(String) }\nimpl fmt::Display for EncodingError {\n    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "unknown encoding") }\n}',
        },
        { user: "Please use thiserror for that, we don't write Display impls by hand." },
        {
          edit: 'src/parser/error.rs',
          old: 'pub enum EncodingError { Unknown(String) }',
          new: '#[derive(Debug, thiserror::Error)]\npub enum EncodingError {\n    #[error("unknown tile encoding {0:?}")]\n    Unknown(String),\n}',
        },
        run('cargo xtask changelog-check', CHANGELOG_FAIL, 1),
        {
          edit: 'CHANGELOG.md',
          old: '## Unreleased\n',
          new: '## Unreleased\n\n- An unknown tile encoding is an error, not a panic.\n',
        },
        run('cargo xtask changelog-check', CHANGELOG_OK),
        { say: 'Unknown encodings return EncodingError::Unknown.' },
      ],
    },
    {
      key: 'tile-11',
      agent: 'claude-code',
      day: 16,
      hour: 10,
      lessons: [],
      tags: {},
      steps: [
        { user: 'Fix the flip flags of tiles in object layers.' },
        { edit: 'src/parser/objects.rs', old: 'let gid = raw;', new: 'let (gid, flips) = split_flip_flags(raw);' },
        run(
          'RUST_MIN_STACK=8388608 cargo test',
          "test render::tests::timing_budget ... FAILED\n\nfailures:\n---- render::tests::timing_budget stdout ----\nthread 'render::tests::timing_budget' panicked at src/render/tests.rs:88:5:\nframe took 17ms, budget 16ms\n\ntest result: FAILED. 117 passed; 1 failed",
          101,
        ),
        run('RUST_MIN_STACK=8388608 cargo test', TEST_OK),
        { say: 'Object-layer tiles keep their flip flags.' },
      ],
    },
  ],
};
