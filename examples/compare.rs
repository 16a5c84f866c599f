use maxconnect4::board::*;
use maxconnect4::search::*;
fn cpu<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = cpu_time::ThreadTime::now();
    let r = f();
    (r, t.elapsed().as_secs_f64())
}
fn main() {
    let input2 = maxconnect4::format::parse(std::fs::read("input_files/input2.txt").unwrap().as_slice()).unwrap().board;
    for (name, b) in [("input2", input2), ("empty", Board::empty())] {
        for d in [8u32, 10, 12, 14] {
            let (ab, tab) = cpu(|| alpha_beta(&b, d).unwrap());
            let (en, ten) = cpu(|| Engine::new(64 << 20).search(&b, &Limits::depth(d)).unwrap());
            println!("{name} depth {d}: alpha-beta {} nodes {:.4}s value {} | engine {} nodes {:.4}s value {} | speedup {:.1}x", ab.nodes, tab, ab.value, en.nodes, ten, en.value, tab / ten);
        }
    }
}
