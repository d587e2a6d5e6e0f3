import Foundation
import MarqueeCore

/// A fetched body in memory, refused past `limit` bytes so a misconfigured or hostile server
/// cannot make the player hold an unbounded answer.
final class MemoryBody: BodySink {
    private(set) var data = Data()
    private let limit: Int

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    func begin(_ headers: ResponseHeaders) throws(HTTPTransferError) {
        if let announced = headers.contentLength, announced > Int64(limit) { throw .tooLarge(Int64(limit)) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(HTTPTransferError) {
        guard data.count + bytes.count <= limit else { throw .tooLarge(Int64(limit)) }
        data.append(contentsOf: bytes)
    }

    var bytesHeld: Int64 { Int64(data.count) }
    var resumedFrom: Int64 { 0 }
}
