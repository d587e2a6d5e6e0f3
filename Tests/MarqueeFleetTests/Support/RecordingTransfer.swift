import Foundation
import MarqueeCore
import Synchronization

/// The client the filler tests download through: any `HTTPTransferring` (the socket stand-in by
/// default; the libcurl client once it lands: change `RecordingTransfer.client` only), wrapped
/// to record each request, how each ended, and how many ran at once.
final class RecordingTransfer: HTTPTransferring {
    /// The client under the tests.
    static func client() -> any HTTPTransferring { SocketHTTPStandIn() }

    private let inner: any HTTPTransferring
    private let state = Mutex(Record())

    struct Record {
        var requests: [HTTPRequest] = []
        var inFlight = 0
        var mostInFlight = 0
        var outcomes: [(url: URL, error: HTTPTransferError?)] = []
    }

    init(_ inner: any HTTPTransferring = RecordingTransfer.client()) {
        self.inner = inner
    }

    var requests: [HTTPRequest] { state.withLock { $0.requests } }
    var mostInFlight: Int { state.withLock { $0.mostInFlight } }
    var inFlight: Int { state.withLock { $0.inFlight } }
    var outcomes: [(url: URL, error: HTTPTransferError?)] { state.withLock { $0.outcomes } }

    func fetch(_ request: HTTPRequest, maxBytes: Int) throws(HTTPTransferError) -> HTTPResponse {
        try inner.fetch(request, maxBytes: maxBytes)
    }

    func download(_ request: HTTPRequest, appendingTo path: String,
                  progress: (Int64, Int64?) -> Bool) throws(HTTPTransferError) -> HTTPResponseHead {
        state.withLock {
            $0.requests.append(request)
            $0.inFlight += 1
            $0.mostInFlight = max($0.mostInFlight, $0.inFlight)
        }
        let result = Result { () throws(HTTPTransferError) in try inner.download(request, appendingTo: path, progress: progress) }
        state.withLock {
            $0.inFlight -= 1
            $0.outcomes.append((request.url, result.failure))
        }
        return try result.get()
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
