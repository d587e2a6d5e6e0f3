import Foundation

/// A download in progress, kept across a crash or kill -9: the bytes so far in
/// `partial/<sha256 of the URL>.part`, and beside it a sidecar (`.json`) with the validators of
/// the response the part was started from. A resume asks for `Range: bytes=<size>-` with
/// `If-Range: <validator>`, so a server whose file changed meanwhile sends the whole new file
/// instead of the rest of the old one.
public struct PartialDownload: Sendable, Equatable {
    public let url: URL
    /// The `.part` file the body is appended to.
    public let path: String
    /// Its sidecar.
    public let sidecarPath: String
    /// Bytes already on disk (0 when there is no part file).
    public var size: Int64
    public var validators: Validators

    /// What the sidecar records.
    public struct Validators: Codable, Sendable, Equatable {
        /// The URL, with any password redacted (`CacheNaming.indexKey`): for a person looking at
        /// the folder only.
        public var url: String
        public var etag: String?
        public var lastModified: String?

        public init(url: String, etag: String? = nil, lastModified: String? = nil) {
            self.url = url
            self.etag = etag
            self.lastModified = lastModified
        }

        /// The `If-Range` value: the ETag, else the Last-Modified date (RFC 9110 allows either).
        public var ifRange: String? { etag ?? lastModified }
    }

    /// What the partial folder holds for `url` now.
    init(url: URL, stem: String, partialDirectory: String) {
        let stem = (partialDirectory as NSString).appendingPathComponent(stem)
        self.url = url
        path = stem + ".part"
        sidecarPath = stem + ".json"
        size = DurableFile.size(of: path) ?? 0
        let recorded = (try? Data(contentsOf: URL(fileURLWithPath: sidecarPath)))
            .flatMap { try? JSONDecoder().decode(Validators.self, from: $0) }
        validators = recorded ?? Validators(url: CacheNaming.indexKey(for: url))
    }

    /// Whether the bytes on disk can be continued: there are some, and either the server can be
    /// asked whether its file is still the one they came from (`If-Range`), or the config's
    /// sha256 will catch a splice of two versions. Without either, a resume could silently store
    /// a corrupt file, so the download starts over instead.
    func isResumable(verifiedBy sha256: String?) -> Bool {
        size > 0 && (validators.ifRange != nil || sha256 != nil)
    }
}
