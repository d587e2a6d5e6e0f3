import Foundation
import MarqueeCore
import Synchronization

/// A fake client for failures a loopback server cannot produce (a full disk, a client that
/// reports success with fewer bytes than announced): each call takes the next scripted answer
/// for its URL, and falls through to `real` when the script has none.
final class ScriptedTransfer: HTTPTransferring {
    enum Answer: Sendable {
        case fail(HTTPTransferError)
        /// Writes `body` into the file and returns a 200 head announcing `announced` bytes.
        case succeed(body: Data, announced: Int64)
    }

    private let real: any HTTPTransferring
    private let script: Mutex<[URL: [Answer]]>
    private let calls = Mutex<[URL]>([])

    init(real: any HTTPTransferring, script: [URL: [Answer]]) {
        self.real = real
        self.script = Mutex(script)
    }

    var callCount: [URL: Int] { calls.withLock { $0.reduce(into: [:]) { $0[$1, default: 0] += 1 } } }

    func fetch(_ request: HTTPRequest, maxBytes: Int) throws(HTTPTransferError) -> HTTPResponse {
        try real.fetch(request, maxBytes: maxBytes)
    }

    func download(_ request: HTTPRequest, appendingTo path: String,
                  progress: (Int64, Int64?) -> Bool) throws(HTTPTransferError) -> HTTPResponseHead {
        calls.withLock { $0.append(request.url) }
        let answer = script.withLock { script -> Answer? in
            guard var answers = script[request.url], !answers.isEmpty else { return nil }
            let first = answers.removeFirst()
            script[request.url] = answers
            return first
        }
        switch answer {
        case .fail(let error)?:
            throw error
        case .succeed(let body, let announced)?:
            _ = FileManager.default.createFile(atPath: path, contents: body)
            return HTTPResponseHead(status: 200, contentLength: announced, effectiveURL: request.url)
        case nil:
            return try real.download(request, appendingTo: path, progress: progress)
        }
    }
}
