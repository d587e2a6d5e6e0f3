import CFFmpeg

/// Process-wide FFmpeg setup that must happen once, before the first open.
enum FFmpegLibrary {
    /// Idempotent and thread-safe (a `static let` initialises exactly once). Throws only the network
    /// setup's failure, and only to callers that need the network.
    static func prepare(forNetwork needsNetwork: Bool) throws(FFmpegError) {
        let setup = networkSetup  // evaluated for everyone: it also installs the log
        if needsNetwork, case .failure(let error) = setup { throw error }
    }

    private static let networkSetup: Result<Void, FFmpegError> = {
        // The log goes first so that even the TLS library's complaints stay off the console.
        FFmpegLog.install()
        // Initialises sockets and the TLS library for https.
        let status = avformat_network_init()
        return status < 0 ? .failure(FFmpegError(code: status, operation: "avformat_network_init")) : .success(())
    }()
}
