import Foundation
import Glibc
import Synchronization

/// What a proof-of-play receiver has been sent: each record's id with how many times it came
/// (a receiver drops repeats by id; the count shows there were some), across restarts of the server.
public final class ReceivedPlays: Sendable {
    private let counts = Mutex<[String: Int]>([:])
    private let batches = Mutex(0)

    public init() {}

    func take(_ body: [UInt8]) {
        let ids = body.split(separator: UInt8(ascii: "\n")).compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])?["id"] as? String
        }
        counts.withLock { counts in for id in ids { counts[id, default: 0] += 1 } }
        batches.withLock { $0 += 1 }
    }

    /// Every id received, with the times it came.
    public var byID: [String: Int] { counts.withLock { $0 } }
    /// Bodies stored, repeats included.
    public var batchCount: Int { batches.withLock { $0 } }
}

/// A proof-of-play receiver on 127.0.0.1 for tests: takes POSTed newline-delimited records into a
/// `ReceivedPlays` and answers as told: 200, an error status, a stored batch answered 500 (so the
/// sender repeats it), slowly, or never (it accepts and hangs). `stop()` closes it, so the next
/// connection is refused; a new receiver on the same port and store is the server back.
public final class PlayReceiver: Sendable {
    public enum Answer: Sendable, Equatable {
        case accept
        case status(Int)
        /// Stores the batch, then answers 500: the sender cannot know it arrived.
        case storeThenFail
        /// Stores the batch and answers 200 after this many seconds.
        case slow(Double)
        /// Reads the request and never answers.
        case hang
    }

    public var port: UInt16 { listener.port }
    private let listener: LoopbackListener
    private let store: ReceivedPlays
    private let state = Mutex(State())

    private struct State {
        /// Answers for the next requests, in order; then `standing`.
        var queued: [Answer] = []
        var standing = Answer.accept
        var requests = 0
    }

    public init(store: ReceivedPlays, port: UInt16 = 0) throws {
        listener = try LoopbackListener(port: port)
        self.store = store
        listener.start(name: "play-receiver") { [self] in serve($0) }
    }

    public var url: String { "http://127.0.0.1:\(port)/pop" }

    /// How every later request is answered.
    public func answer(_ answer: Answer) {
        state.withLock { $0.standing = answer }
    }

    /// How the next requests are answered, one each, before the standing answer.
    public func answerNext(_ answers: [Answer]) {
        state.withLock { $0.queued.append(contentsOf: answers) }
    }

    public var requestCount: Int { state.withLock { $0.requests } }

    public func stop() {
        listener.stop()
    }

    private func serve(_ connection: Int32) {
        guard let body = readBody(connection) else { return }
        let answer = state.withLock { state -> Answer in
            state.requests += 1
            return state.queued.isEmpty ? state.standing : state.queued.removeFirst()
        }
        switch answer {
        case .accept:
            store.take(body)
            reply(200, on: connection)
        case .status(let code):
            reply(code, on: connection)
        case .storeThenFail:
            store.take(body)
            reply(500, on: connection)
        case .slow(let seconds):
            Thread.sleep(forTimeInterval: seconds)
            store.take(body)
            reply(200, on: connection)
        case .hang:
            // Until the client gives up (its stall timeout) or the receiver stops.
            var byte: UInt8 = 0
            _ = recv(connection, &byte, 1, 0)
        }
    }

    private func reply(_ code: Int, on connection: Int32) {
        let text = "HTTP/1.1 \(code) \(code == 200 ? "OK" : "Error")\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        _ = text.withCString { send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// The request's body (by its Content-Length); nil when the client went away first.
    private func readBody(_ connection: Int32) -> [UInt8]? {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var headerEnd: Int?
        var length = 0
        while true {
            if headerEnd == nil, let end = received.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound {
                headerEnd = end
                let head = String(decoding: received[..<end], as: UTF8.self).lowercased()
                if let line = head.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("content-length:") }) {
                    length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
            if let headerEnd, received.count - headerEnd >= length { return Array(received[headerEnd..<(headerEnd + length)]) }
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            received.append(contentsOf: chunk[0..<count])
        }
    }
}
