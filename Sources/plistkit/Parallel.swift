import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--jobs N` (Specs/plistkit.md, "Many files"): work on N inputs at once,
/// on threads of this process, and hand the results back in input order.
///
/// The threads are POSIX threads, for their stack size; the state they share
/// is behind one `Mutex` (the Synchronization module), and a semaphore wakes
/// the calling thread as each result comes in. No pointer crosses into C:
/// a starting thread takes its work from ``starting`` instead of from its
/// start routine's context argument.
enum Parallel {
    /// The stack of each worker thread: the writers and the value model's
    /// equality recurse up to `PropertyListLimits.maxSupportedDepth` levels,
    /// within a main thread's 8 MiB (Specs/architecture.md, "One stack policy").
    static let stackBytes = 8 << 20

    /// The number of cores online, at least 1.
    static var availableCores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Runs `work` for every index below `count` on `jobs` threads, and calls
    /// `deliver` on the calling thread for each index in order, as soon as
    /// its result and every earlier one are in. With one job (or one index)
    /// everything runs on the calling thread, in order: the serial run. If
    /// `deliver` throws, no new index is started, the threads are joined, and
    /// the error is rethrown.
    ///
    /// `work` runs on several threads at once: it may only read what it
    /// captures (the verbs' options and file names), and must not print
    /// (`deliver` does, on the calling thread).
    static func run<Result: Sendable>(count: Int, jobs: Int, work: @escaping (Int) -> Result,
                            deliver: (Int, Result) throws -> Void) throws {
        guard jobs > 1, count > 1 else {
            for index in 0..<count { try deliver(index, work(index)) }
            return
        }
        let shared = Shared<Result>(count: count, work: work)
        var threads: [pthread_t] = []
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackBytes)
        for _ in 0..<min(jobs, count) {
            guard let thread = start(shared, attributes: &attributes) else { break }
            threads.append(thread)
        }
        defer { for thread in threads { pthread_join(thread, nil) } }
        // No thread could start: the calling thread does the work itself.
        if threads.isEmpty { shared.runWorker() }
        do {
            for index in 0..<count { try deliver(index, shared.take(index)) }
        } catch {
            shared.stop()
            throw error
        }
    }

    /// The worker the next thread to start takes, and the signal that it took it.
    private static let starting = Mutex<(any Runnable)?>(nil)
    private static let taken = DispatchSemaphore(value: 0)
    /// One thread starts at a time, process-wide, so that each takes the worker meant for it.
    private static let startingOne = Mutex<Void>(())

    /// Starts a thread that runs `worker`; nil if none could start.
    private static func start(_ worker: any Runnable, attributes: inout pthread_attr_t) -> pthread_t? {
        startingOne.withLock { _ -> pthread_t? in
            starting.withLock { $0 = worker }
            var thread = pthread_t()
            guard pthread_create(&thread, &attributes, { _ in
                let worker = Parallel.starting.withLock { slot in slot.take() }
                Parallel.taken.signal()
                worker?.runWorker()
                return nil
            }, nil) == 0 else {
                starting.withLock { $0 = nil }
                return nil
            }
            taken.wait()
            return thread
        }
    }
}

/// What a worker thread runs (a class-constrained protocol, so that the
/// thread's entry point, which cannot be generic, can call it).
private protocol Runnable: AnyObject, Sendable {
    func runWorker()
}

/// The state the threads share: the next index to claim and the results,
/// behind one mutex; a semaphore is signalled once for each result stored.
private final class Shared<Result: Sendable>: Runnable, @unchecked Sendable {
    private struct State {
        var next = 0
        var stopped = false
        var results: [Result?]
    }

    private let count: Int
    private let work: (Int) -> Result
    private let state: Mutex<State>
    private let stored = DispatchSemaphore(value: 0)

    init(count: Int, work: @escaping (Int) -> Result) {
        self.count = count
        self.work = work
        state = Mutex(State(results: Array(repeating: nil, count: count)))
    }

    /// Claims indexes and works on them until none is left (or `stop()`).
    func runWorker() {
        while true {
            let index: Int? = state.withLock { state in
                guard !state.stopped, state.next < count else { return nil }
                defer { state.next += 1 }
                return state.next
            }
            guard let index else { return }
            let result = work(index)
            state.withLock { $0.results[index] = result }
            stored.signal()
        }
    }

    /// Waits for the result of `index` and takes it out. Every result stored
    /// signals once after it is in, so a wait after finding none ends when one
    /// more is stored, and the result is looked for again.
    func take(_ index: Int) -> Result {
        while true {
            if let result = state.withLock({ $0.results[index].take() }) { return result }
            stored.wait()
        }
    }

    /// No new index is started.
    func stop() {
        state.withLock { $0.stopped = true }
    }
}
