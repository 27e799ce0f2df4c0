import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Cell, Row, RowHeader, Table } from './Table'

describe('Table', () => {
  const html = renderToStaticMarkup(
    <Table caption="Operators" columns={['Name', 'Role', { name: 'Actions', hidden: true }]}>
      <Row>
        <RowHeader>ada</RowHeader>
        <Cell label="Role">admin</Cell>
        <Cell>
          <button type="button">Remove</button>
        </Cell>
      </Row>
    </Table>,
  )

  it('spells out every table role, so a phone layout that changes display keeps the semantics', () => {
    expect(html).toContain('<table role="table"')
    expect(html.match(/role="rowgroup"/g)).toHaveLength(2)
    expect(html.match(/role="row"/g)).toHaveLength(2)
    expect(html.match(/role="columnheader" scope="col"/g)).toHaveLength(3)
    expect(html).toContain('<th role="rowheader" scope="row"')
    expect(html.match(/role="cell"/g)).toHaveLength(2)
  })

  it('names each cell for the phone layout, and hides a column name meant for screen readers only', () => {
    expect(html).toContain('data-label="Role">admin</td>')
    expect(html).toMatch(/<td role="cell"><button/)
    expect(html).toContain('<span class="visually-hidden">Actions</span>')
    expect(html).toContain('<caption>Operators</caption>')
  })
})
