import MarqueeCore

/// Copies an upright XRGB8888 picture into a buffer turned clockwise by a quarter-turn multiple.
///
/// libswscale only scales and converts; turning is a pixel shuffle. The loop walks the destination
/// row by row, so writes (to a framebuffer, often uncached) stay sequential and reads do the jumping.
enum QuarterTurn {
    /// - Parameters:
    ///   - source: `size.width * size.height` pixels, rows of `size.width`.
    ///   - destination: where the turned picture goes; its size is `size.rotated(by: rotation)`.
    /// `rowPixels`: the source's row length in pixels, `size.width` or more (a padded scratch).
    static func copy(_ source: UnsafeBufferPointer<UInt32>, size: PixelSize, rowPixels: Int? = nil, turned rotation: Rotation,
                     into buffer: PixelBuffer, at destination: PixelRect) {
        precondition(destination.size == size.rotated(by: rotation), "a turned copy must fit its destination exactly")
        let width = size.width, height = size.height, stride = rowPixels ?? size.width
        precondition(stride >= width && source.count >= stride * height, "source smaller than its size")
        for row in 0..<destination.height {
            let line = (buffer.baseAddress + (destination.y + row) * buffer.bytesPerRow)
                .assumingMemoryBound(to: UInt32.self) + destination.x
            switch rotation {
            case .none:
                UnsafeMutableRawPointer(line).copyMemory(from: source.baseAddress! + row * stride, byteCount: destination.width * 4)
            case .clockwise90:
                // Destination (column, row) shows source (row, height - 1 - column): the left edge became the top.
                for column in 0..<destination.width { line[column] = source[(height - 1 - column) * stride + row] }
            case .upsideDown:
                let sourceRow = (height - 1 - row) * stride
                for column in 0..<destination.width { line[column] = source[sourceRow + width - 1 - column] }
            case .clockwise270:
                // Destination (column, row) shows source (width - 1 - row, column): the top edge became the left.
                for column in 0..<destination.width { line[column] = source[column * stride + width - 1 - row] }
            }
        }
    }
}
