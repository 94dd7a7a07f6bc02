import Datasets
import Parquet

extension TypedMealRowBuilder {
    /// `rows` as the columns of a `meals` Parquet table, in the table's column order.
    public static func columns(_ rows: [Self]) -> [ParquetColumnValues] {
        var columns = DatasetKind.meals.emptyParquetColumns()
        for row in rows {
            columns[0].append(text: row.id)
            columns[1].append(text: row.user)
            columns[2].append(row.startMicros)
            columns[3].append(row.endMicros)
            columns[4].append(text: row.type)
            for (c, value) in [row.kcal, row.protein, row.carbs, row.fat].enumerated() { columns[5 + c].append(value) }
        }
        return columns
    }
}

extension TypedStepRowBuilder {
    /// `rows` as the columns of a `steps` Parquet table, in the table's column order.
    public static func columns(_ rows: [Self]) -> [ParquetColumnValues] {
        var columns = DatasetKind.steps.emptyParquetColumns()
        for row in rows {
            columns[0].append(text: row.id)
            columns[1].append(text: row.user)
            columns[2].append(text: row.source)
            columns[3].append(row.startMicros)
            columns[4].append(row.endMicros)
            columns[5].append(row.count)
        }
        return columns
    }
}

extension DatasetKind {
    /// One empty column per column of the kind's Parquet table.
    public func emptyParquetColumns() -> [ParquetColumnValues] {
        parquetSchema.columns.map { ParquetColumnValues(type: $0.type, nullable: $0.nullable) }
    }
}

extension ParquetColumnValues {
    /// Appends `text`'s UTF-8 bytes as one string value.
    public mutating func append(text: String) {
        Array(text.utf8).withUnsafeBufferPointer { append(utf8: $0) }
    }
}

extension TypedPaymentRowBuilder {
    /// `rows` as the columns of a `payments` Parquet table, in the table's column order.
    public static func columns(_ rows: [Self]) -> [ParquetColumnValues] {
        var columns = DatasetKind.payments.emptyParquetColumns()
        for row in rows {
            columns[0].append(text: row.id)
            columns[1].append(text: row.key)
            columns[2].append(text: row.user)
            columns[3].append(text: row.kind)
            columns[4].append(row.amount)
            columns[5].append(text: row.currency)
            columns[6].append(row.createdMicros)
            if let refundOf = row.refundOf { columns[7].append(text: refundOf) } else { columns[7].appendNull() }
            columns[8].append(text: row.gateway)
        }
        return columns
    }
}
