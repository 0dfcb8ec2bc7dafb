//! pokerlab's benchmark harness around b-inary/postflop-solver.
//!
//! Reads one spot as JSON (argv[1] as a literal `{...}`, a path to a JSON file, or `-`/nothing for
//! stdin), builds the peer's game tree, runs Discounted CFR with `solve_step`, checking
//! `compute_exploitability` every `check_every` iterations (as the peer's examples do) until the
//! exploitability is at most `target_pct` percent of the starting pot, and prints one JSON line.
//!
//! Spot keys (defaults in brackets): board (required, 6/8/10 chars, e.g. "Td9d6hQc2s"), pot, stack,
//! oop, ip (range strings, required), flop_bets ["33%,75%"], turn_bets ["50%,100%"], river_bets
//! ["50%,100%"], raises ["2.5x"], donk [null = same as bets] (or turn_donk / river_donk),
//! allin_threshold [1.5], force_allin [0.15], merge [0.1], rake_rate [0], rake_cap [0],
//! target_pct [0.3], max_iterations [2000], check_every [10], threads [1], build_only [false] (build
//! the tree and report its size without allocating or solving).

// `x % n == 0` rather than `is_multiple_of`, which needs rustc 1.87+.
#![allow(unknown_lints, clippy::manual_is_multiple_of)]

use postflop_solver::*;
use serde_json::{json, Map, Value};
use std::io::Read;
use std::time::Instant;

fn fail(msg: &str) -> ! {
    eprintln!("peer-postflop: {msg}");
    println!("{}", json!({"solver": "postflop-solver", "error": msg}));
    std::process::exit(1);
}

/// Node counts of the betting tree (the peer's public `ActionTree` walk, which steps over chance
/// nodes): decisions, folds and other terminals (showdowns, all-in runouts), to check that
/// pokerlab builds the same tree as the peer (`benchmarks/bench_spot.py` prints both).
fn count_tree(tree: &mut ActionTree, folded: bool, counts: &mut [u64; 3]) {
    if tree.is_terminal_node() {
        counts[if folded { 1 } else { 2 }] += 1;
        return;
    }
    counts[0] += 1;
    let actions: Vec<Action> = tree.available_actions().to_vec();
    for action in actions {
        tree.play(action).unwrap_or_else(|e| fail(&format!("tree walk: {e}")));
        count_tree(tree, matches!(action, Action::Fold), counts);
        tree.undo().unwrap_or_else(|e| fail(&format!("tree walk: {e}")));
    }
}

/// Process CPU time (all threads, user + system) in seconds.
fn process_cpu_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid out-pointer.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return f64::NAN;
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Peak resident set size of this process in bytes: `VmHWM` of /proc/self/status (the high-water
/// mark of this program's own address space), else getrusage's `ru_maxrss`, which on Linux also
/// counts the parent's memory before `exec` (e.g. a forking Python benchmark script).
fn max_rss_bytes() -> u64 {
    if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
        for line in status.lines() {
            if let Some(rest) = line.strip_prefix("VmHWM:") {
                let kb = rest.trim().trim_end_matches("kB").trim();
                if let Ok(kb) = kb.parse::<u64>() {
                    return kb * 1024;
                }
            }
        }
    }
    // SAFETY: zeroed rusage is a valid out-parameter.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    if rc != 0 {
        return 0;
    }
    ru.ru_maxrss as u64 * 1024 // kilobytes on Linux
}

fn read_spot() -> Map<String, Value> {
    let arg = std::env::args().nth(1);
    let text = match arg.as_deref() {
        None | Some("-") => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .unwrap_or_else(|e| fail(&format!("cannot read stdin: {e}")));
            s
        }
        Some("-h") | Some("--help") => {
            eprintln!("usage: peer-postflop ['{{json spot}}' | spot.json | -]  (see README.md)");
            std::process::exit(0);
        }
        Some(s) if s.trim_start().starts_with('{') => s.to_string(),
        Some(path) => std::fs::read_to_string(path)
            .unwrap_or_else(|e| fail(&format!("cannot read {path}: {e}"))),
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(m)) => m,
        Ok(_) => fail("spot must be a JSON object"),
        Err(e) => fail(&format!("invalid JSON: {e}")),
    }
}

fn get_str(m: &Map<String, Value>, key: &str, default: Option<&str>) -> String {
    match m.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => match default {
            Some(d) => d.to_string(),
            None => fail(&format!("missing string field '{key}'")),
        },
        Some(v) => fail(&format!("field '{key}' must be a string, got {v}")),
    }
}

fn get_opt_str(m: &Map<String, Value>, key: &str) -> Option<String> {
    match m.get(key) {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Null) | None => None,
        Some(v) => fail(&format!("field '{key}' must be a string or null, got {v}")),
    }
}

fn get_f64(m: &Map<String, Value>, key: &str, default: Option<f64>) -> f64 {
    match m.get(key) {
        Some(Value::Number(n)) => n.as_f64().unwrap(),
        Some(Value::Null) | None => match default {
            Some(d) => d,
            None => fail(&format!("missing numeric field '{key}'")),
        },
        Some(v) => fail(&format!("field '{key}' must be a number, got {v}")),
    }
}

fn get_i32(m: &Map<String, Value>, key: &str, default: Option<f64>) -> i32 {
    let x = get_f64(m, key, default);
    if x.fract() != 0.0 || x < 0.0 || x > i32::MAX as f64 {
        fail(&format!(
            "field '{key}' must be a non-negative integer, got {x}"
        ));
    }
    x as i32
}

fn main() {
    let spot = read_spot();

    let board = get_str(&spot, "board", None).replace([' ', ','], "");
    let pot = get_i32(&spot, "pot", None);
    let stack = get_i32(&spot, "stack", None);
    let oop_range = get_str(&spot, "oop", None);
    let ip_range = get_str(&spot, "ip", None);
    let flop_bets = get_str(&spot, "flop_bets", Some("33%,75%"));
    let turn_bets = get_str(&spot, "turn_bets", Some("50%,100%"));
    let river_bets = get_str(&spot, "river_bets", Some("50%,100%"));
    let raises = get_str(&spot, "raises", Some("2.5x"));
    let donk = get_opt_str(&spot, "donk");
    let turn_donk = get_opt_str(&spot, "turn_donk").or_else(|| donk.clone());
    let river_donk = get_opt_str(&spot, "river_donk").or_else(|| donk.clone());
    let allin_threshold = get_f64(&spot, "allin_threshold", Some(1.5));
    let force_allin = get_f64(&spot, "force_allin", Some(0.15));
    let merge = get_f64(&spot, "merge", Some(0.1));
    let rake_rate = get_f64(&spot, "rake_rate", Some(0.0));
    let rake_cap = get_f64(&spot, "rake_cap", Some(0.0));
    let target_pct = get_f64(&spot, "target_pct", Some(0.3));
    let max_iterations = get_i32(&spot, "max_iterations", Some(2000.0)) as u32;
    let check_every = get_i32(&spot, "check_every", Some(10.0)).max(1) as u32;
    let threads = get_i32(&spot, "threads", Some(1.0)).max(1) as usize;
    let build_only = matches!(spot.get("build_only"), Some(Value::Bool(true)));

    if !(board.len() == 6 || board.len() == 8 || board.len() == 10) {
        fail(&format!("board must have 3, 4 or 5 cards, got '{board}'"));
    }
    let flop = flop_from_str(&board[0..6]).unwrap_or_else(|e| fail(&format!("board: {e}")));
    let turn = if board.len() >= 8 {
        card_from_str(&board[6..8]).unwrap_or_else(|e| fail(&format!("board: {e}")))
    } else {
        NOT_DEALT
    };
    let river = if board.len() == 10 {
        card_from_str(&board[8..10]).unwrap_or_else(|e| fail(&format!("board: {e}")))
    } else {
        NOT_DEALT
    };
    let initial_state = match board.len() {
        6 => BoardState::Flop,
        8 => BoardState::Turn,
        _ => BoardState::River,
    };

    let parse_range = |s: &str, who: &str| -> Range {
        s.parse::<Range>()
            .unwrap_or_else(|e| fail(&format!("{who} range: {e}")))
    };
    let card_config = CardConfig {
        range: [parse_range(&oop_range, "oop"), parse_range(&ip_range, "ip")],
        flop,
        turn,
        river,
    };

    let sizes = |bets: &str, street: &str| -> BetSizeOptions {
        BetSizeOptions::try_from((bets, raises.as_str()))
            .unwrap_or_else(|e| fail(&format!("{street} bet sizes: {e}")))
    };
    let donk_sizes = |s: &Option<String>| -> Option<DonkSizeOptions> {
        s.as_ref().map(|d| {
            DonkSizeOptions::try_from(d.as_str())
                .unwrap_or_else(|e| fail(&format!("donk sizes: {e}")))
        })
    };
    let flop_sizes = sizes(&flop_bets, "flop");
    let turn_sizes = sizes(&turn_bets, "turn");
    let river_sizes = sizes(&river_bets, "river");
    let tree_config = TreeConfig {
        initial_state,
        starting_pot: pot,
        effective_stack: stack,
        rake_rate,
        rake_cap,
        flop_bet_sizes: [flop_sizes.clone(), flop_sizes],
        turn_bet_sizes: [turn_sizes.clone(), turn_sizes],
        river_bet_sizes: [river_sizes.clone(), river_sizes],
        turn_donk_sizes: donk_sizes(&turn_donk),
        river_donk_sizes: donk_sizes(&river_donk),
        add_allin_threshold: allin_threshold,
        force_allin_threshold: force_allin,
        merging_threshold: merge,
    };

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap_or_else(|e| fail(&format!("thread pool: {e}")));

    let result = pool.install(|| {
        // ---- build (tree + game + memory allocation) ----
        let build_wall = Instant::now();
        let build_cpu = process_cpu_seconds();
        let mut action_tree =
            ActionTree::new(tree_config).unwrap_or_else(|e| fail(&format!("action tree: {e}")));
        let mut counts = [0u64; 3];
        count_tree(&mut action_tree, false, &mut counts);
        action_tree.back_to_root();
        let tree_nodes = json!({"decision_nodes": counts[0], "fold_nodes": counts[1],
                                "showdown_nodes": counts[2]});
        let mut game = PostFlopGame::with_config(card_config, action_tree)
            .unwrap_or_else(|e| fail(&format!("game: {e}")));
        let (mem_uncompressed, mem_compressed) = game.memory_usage();
        if build_only {
            return json!({
                "solver": "postflop-solver",
                "board": board,
                "build_only": true,
                "memory_bytes": mem_uncompressed,
                "memory_bytes_compressed": mem_compressed,
                "build_seconds": build_wall.elapsed().as_secs_f64(),
                "num_hands": [game.num_private_hands(0), game.num_private_hands(1)],
                "tree": tree_nodes,
            });
        }
        game.allocate_memory(false);
        let build_seconds = build_wall.elapsed().as_secs_f64();
        let build_cpu_seconds = process_cpu_seconds() - build_cpu;

        // ---- solve ----
        let target = pot as f32 * (target_pct as f32) / 100.0;
        let solve_wall = Instant::now();
        let solve_cpu = process_cpu_seconds();
        let mut check_cpu = 0.0f64;
        let mut exploitability = f32::INFINITY;
        let mut iterations = 0u32;
        while iterations < max_iterations {
            solve_step(&game, iterations);
            iterations += 1;
            if iterations % check_every == 0 {
                let c0 = process_cpu_seconds();
                exploitability = compute_exploitability(&game);
                check_cpu += process_cpu_seconds() - c0;
                if exploitability <= target {
                    break;
                }
            }
        }
        if iterations % check_every != 0 || iterations == 0 {
            let c0 = process_cpu_seconds();
            exploitability = compute_exploitability(&game);
            check_cpu += process_cpu_seconds() - c0;
        }
        finalize(&mut game);
        let solve_wall_seconds = solve_wall.elapsed().as_secs_f64();
        let solve_cpu_seconds = process_cpu_seconds() - solve_cpu;

        // ---- root values (peer convention: EVs are pot shares, ev_oop + ev_ip = pot unraked) ----
        game.back_to_root();
        game.cache_normalized_weights();
        let ev_oop = compute_average(&game.expected_values(0), game.normalized_weights(0));
        let ev_ip = compute_average(&game.expected_values(1), game.normalized_weights(1));
        let equity_oop = compute_average(&game.equity(0), game.normalized_weights(0));
        let root_actions: Vec<String> = game
            .available_actions()
            .iter()
            .map(|a| format!("{a:?}"))
            .collect();

        json!({
            "solver": "postflop-solver",
            "peer_rev": option_env!("PEER_POSTFLOP_REV").unwrap_or("unknown"),
            "board": board,
            "pot": pot,
            "stack": stack,
            "threads": threads,
            "iterations": iterations,
            "exploitability": exploitability as f64,
            "exploitability_pct": 100.0 * exploitability as f64 / pot as f64,
            "target_pct": target_pct,
            "reached_target": exploitability <= target,
            "memory_bytes": mem_uncompressed,
            "memory_bytes_compressed": mem_compressed,
            "max_rss_bytes": max_rss_bytes(),
            "build_seconds": build_seconds,
            "build_cpu_seconds": build_cpu_seconds,
            "solve_cpu_seconds": solve_cpu_seconds,
            "solve_wall_seconds": solve_wall_seconds,
            "cpu_seconds": solve_cpu_seconds,
            "exploitability_check_cpu_seconds": check_cpu,
            "ev_oop": ev_oop as f64,
            "ev_ip": ev_ip as f64,
            "ev_oop_net": ev_oop as f64 - pot as f64 / 2.0,
            "ev_ip_net": ev_ip as f64 - pot as f64 / 2.0,
            "equity_oop": equity_oop as f64,
            "root_actions": root_actions,
            "num_hands": [game.num_private_hands(0), game.num_private_hands(1)],
            "tree": tree_nodes,
        })
    });
    println!("{result}");
}
