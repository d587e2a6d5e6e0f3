import Glibc
import MarqueeCore

/// The control-plane loop's side of one client: owns the client's fd (closed exactly once, by `close()`),
/// cuts what it sends into lines, and writes what is queued for it as fast as the kernel takes it.
/// Only the loop's thread touches it; replies reach it through the server's shared outbox.
final class ControlConnection {
    let peer: ControlPeer
    private var fd: Int32
    private var lines: ControlLineBuffer
    /// Bytes taken from the outbox and not yet written, from `outputOffset` on.
    private(set) var output: [UInt8] = []
    private var outputOffset = 0
    /// The client shut down its writing side (or hung up): nothing more to read.
    private(set) var inputEnded = false
    /// A fatal reply was queued (`sendAndClose`): nothing more is read, and the connection closes
    /// once the reply is written. Mirrors the outbox, for the loop's thread.
    var isClosing = false
    /// Being let go: nothing more is read from it.
    var isWindingDown: Bool { inputEnded || isClosing }
    /// When the client's reading or writing last made progress, on the monotonic clock; a
    /// half-closed client is let go once it has made none for the grace period.
    private(set) var lastProgress: UInt64

    enum ReadOutcome: Equatable {
        case open, ended, failed(Int32)
    }

    init(fd: Int32, peer: ControlPeer, maxLineBytes: Int, now: UInt64) {
        self.fd = fd
        self.peer = peer
        self.lines = ControlLineBuffer(maxLineBytes: maxLineBytes)
        self.lastProgress = now
    }

    deinit {
        // Every path out calls close(); this only guards against a path that forgets.
        if fd >= 0 { Glibc.close(fd) }
    }

    var descriptor: Int32 { fd }
    var pendingOutput: Int { output.count - outputOffset }

    /// Hands the connection the outbox's queued bytes (an exchange of buffers, no copy); only when
    /// it has nothing left to write, so bytes keep their order.
    func takeOutput(_ queued: inout [UInt8]) {
        precondition(pendingOutput == 0)
        output.removeAll(keepingCapacity: output.capacity <= 64 * 1024)
        outputOffset = 0
        swap(&output, &queued)
    }

    /// Reads what is there, at most `budget` bytes so one chatty client cannot starve the others,
    /// and appends the lines it completes.
    func read(into inputs: inout [ControlSocketInput], scratch: inout [UInt8], budget: Int, now: UInt64) -> ReadOutcome {
        var total = 0
        while total < budget {
            let count: Int
            do {
                count = try SystemCall.retrying("recv") {
                    scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                }
            } catch {
                if error.code == EAGAIN || error.code == EWOULDBLOCK { return .open }
                return .failed(error.code)
            }
            if count > 0 {
                total += count
                lastProgress = now
                scratch.withUnsafeBytes { lines.append(UnsafeRawBufferPointer(rebasing: $0[0..<count]), into: &inputs) }
                continue
            }
            if count == 0 {
                lines.finish(into: &inputs)
                inputEnded = true
                lastProgress = now
                return .ended
            }
        }
        return .open
    }

    /// Writes what the kernel takes without waiting; the bytes written, and the errno if the
    /// connection failed (EPIPE: the client went away).
    func write(now: UInt64) -> (written: Int, failure: Int32?) {
        var written = 0
        while outputOffset < output.count {
            let count: Int
            do {
                count = try SystemCall.retrying("send") {
                    output.withUnsafeBytes {
                        send(fd, $0.baseAddress! + outputOffset, $0.count - outputOffset, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                    }
                }
            } catch {
                if error.code == EAGAIN || error.code == EWOULDBLOCK { break }
                return (written, error.code)
            }
            if count > 0 {
                written += count
                outputOffset += count
                lastProgress = now
                continue
            }
            return (written, EIO)
        }
        if outputOffset == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 64 * 1024)
            outputOffset = 0
        }
        return (written, nil)
    }

    /// The pending socket error, for a POLLERR.
    func socketError() -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code == 0 ? EIO : code
    }

    func close() {
        guard fd >= 0 else { return }
        UnixSocket.discardUnread(fd)
        Glibc.close(fd)
        fd = -1
        output = []
        outputOffset = 0
    }
}
