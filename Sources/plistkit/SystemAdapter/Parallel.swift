#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--jobs N` (Specs/plistkit.md, "Many files"): work on N inputs at once,
/// on threads of this process, and hand the results back in input order.
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
    static func run<Result>(count: Int, jobs: Int, work: @escaping (Int) -> Result,
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
            var thread = pthread_t()
            let context = Unmanaged.passRetained(shared).toOpaque()
            guard pthread_create(&thread, &attributes, { context in
                let shared = Unmanaged<AnyObject>.fromOpaque(context!).takeRetainedValue() as! any Runnable
                shared.runWorker()
                return nil
            }, context) == 0 else {
                Unmanaged<Shared<Result>>.fromOpaque(context).release()
                break
            }
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
}

/// What a worker thread runs (a class-constrained protocol, so that the
/// thread's entry point, which cannot be generic, can call it).
private protocol Runnable: AnyObject {
    func runWorker()
}

/// The state the threads share: the next index to claim and the results,
/// behind one mutex; a condition signals each result.
private final class Shared<Result>: Runnable, @unchecked Sendable {
    private let count: Int
    private let work: (Int) -> Result
    private var next = 0
    private var stopped = false
    private var results: [Result?]
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let ready = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(count: Int, work: @escaping (Int) -> Result) {
        self.count = count
        self.work = work
        results = Array(repeating: nil, count: count)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(ready, nil)
    }

    deinit {
        pthread_cond_destroy(ready)
        pthread_mutex_destroy(mutex)
        ready.deallocate()
        mutex.deallocate()
    }

    /// Claims indexes and works on them until none is left (or `stop()`).
    func runWorker() {
        while true {
            pthread_mutex_lock(mutex)
            let index = next
            let go = !stopped && index < count
            if go { next += 1 }
            pthread_mutex_unlock(mutex)
            guard go else { return }
            let result = work(index)
            pthread_mutex_lock(mutex)
            results[index] = result
            pthread_cond_broadcast(ready)
            pthread_mutex_unlock(mutex)
        }
    }

    /// Waits for the result of `index` and takes it out.
    func take(_ index: Int) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while results[index] == nil { pthread_cond_wait(ready, mutex) }
        let result = results[index]!
        results[index] = nil
        return result
    }

    /// No new index is started.
    func stop() {
        pthread_mutex_lock(mutex)
        stopped = true
        pthread_mutex_unlock(mutex)
    }
}
