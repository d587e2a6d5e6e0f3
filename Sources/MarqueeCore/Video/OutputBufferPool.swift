import Synchronization

/// The picture buffers an output owns, lent one at a time: to the decode thread, which converts a
/// picture into one ahead of its turn, and to the output itself, which keeps the one on screen
/// and the one queued to go there. A buffer comes back when its lease is released (the last
/// reference to it goes: a picture dropped, a flip away from it completed), so no buffer is
/// written while it is on screen or queued.
///
/// The decode thread never takes the last `reserve` free buffers: the output can always draw a
/// picture itself (the labels on a still, a picture the decoder had no buffer for), so it never
/// waits for the decoder and the decoder never waits for it.
public final class OutputBufferPool: @unchecked Sendable {
    // @unchecked: the storages are written only through leases, one holder at a time; the free
    // list and the callback are behind the mutex.
    /// The buffers, by slot.
    public let storages: [PixelStorage]
    private let reserve: Int
    private struct State {
        /// The free buffers, the one given back last at the end: it is lent first, so a buffer
        /// the steady flow does not need (the reserve) stays untouched, and one allocated lazily
        /// (`LazyCanvas`) costs no memory.
        var free: [Int]
        var onGiveBack: (@Sendable () -> Void)?
    }
    private let state: Mutex<State>

    public init(_ storages: [PixelStorage], reserve: Int = 1) {
        precondition(storages.count > reserve, "a pool must lend at least one buffer beyond its reserve")
        self.storages = storages
        self.reserve = reserve
        state = Mutex(State(free: Array(storages.indices.reversed())))
    }

    /// How many buffers are not lent now.
    public var freeCount: Int { state.withLock { $0.free.count } }

    /// A free buffer for the decode thread, never one of the last `reserve`; nil at once when
    /// there is none (the picture waits, unconverted, and `onGiveBack` says when to try again).
    public func lendForConversion() -> OutputBufferLease? {
        lend(keeping: reserve)
    }

    /// Any free buffer, for the output's own drawing; nil when every one is lent.
    public func lendToOutput() -> OutputBufferLease? {
        lend(keeping: 0)
    }

    private func lend(keeping kept: Int) -> OutputBufferLease? {
        let slot: Int? = state.withLock { state in
            guard state.free.count > kept else { return nil }
            return state.free.removeLast()
        }
        return slot.map { OutputBufferLease(pool: self, slot: $0) }
    }

    /// Called, outside the pool's lock, on whichever thread gave a buffer back: the player points
    /// it at the decode thread of the item on screen, which converts its next picture then.
    public func whenGivenBack(_ action: (@Sendable () -> Void)?) {
        state.withLock { $0.onGiveBack = action }
    }

    /// The storage behind a lease, for the output that owns it (to flip to it, to read it back).
    public func storage(of lease: OutputBufferLease) -> PixelStorage? {
        lease.pool === self ? storages[lease.slot] : nil
    }

    fileprivate func giveBack(_ slot: Int) {
        let action = state.withLock { state in
            state.free.append(slot)
            return state.onGiveBack
        }
        action?()
    }

    fileprivate func withPixels<Result>(_ slot: Int, _ body: (PixelBuffer) throws -> Result) rethrows -> Result {
        try storages[slot].withPixelBuffer(body)
    }
}

/// One buffer of an `OutputBufferPool`, lent to one holder at a time: whoever holds the lease may
/// write the buffer; releasing it (dropping the last reference) gives the buffer back.
public final class OutputBufferLease: @unchecked Sendable {
    // @unchecked: the pool is immutable but for its mutex; the slot is never shared while lent.
    public let pool: OutputBufferPool
    public let slot: Int

    fileprivate init(pool: OutputBufferPool, slot: Int) {
        self.pool = pool
        self.slot = slot
    }

    deinit { pool.giveBack(slot) }

    /// Lends the buffer's pixels for the length of `body`.
    public func withPixelBuffer<Result>(_ body: (PixelBuffer) throws -> Result) rethrows -> Result {
        try pool.withPixels(slot, body)
    }
}
