import { describe, expect, it } from 'vitest';
import { componentStatusPrinter } from './component-status';

describe('component status printer', () => {
  it('has the Name, Status, Message and Error columns and no Age', () => {
    expect(componentStatusPrinter.columns.map((c) => [c.name, c.type, c.format, c.priority])).toEqual([
      ['Name', 'string', 'name', 0],
      ['Status', 'string', '', 0],
      ['Message', 'string', '', 0],
      ['Error', 'string', '', 0],
    ]);
  });

  it('prints the Healthy condition as Healthy or Unhealthy with its message and error', () => {
    const cs = (status: string, message?: string, error?: string) => ({ metadata: { name: 'c' }, conditions: [{ type: 'Healthy', status, message, error }] });
    expect(componentStatusPrinter.print(cs('True', '{"health":"true","reason":""}'), 0).cells).toEqual(['c', 'Healthy', '{"health":"true","reason":""}', '']);
    expect(componentStatusPrinter.print(cs('False', 'refused'), 0).cells).toEqual(['c', 'Unhealthy', 'refused', '']);
    expect(componentStatusPrinter.print(cs('Unknown', '', 'timeout'), 0).cells).toEqual(['c', 'Unhealthy', '', 'timeout']);
  });

  it('says Unknown when there is no Healthy condition', () => {
    expect(componentStatusPrinter.print({ metadata: { name: 'x' }, conditions: [{ type: 'Other', status: 'True' }] }, 0).cells).toEqual(['x', 'Unknown', '', '']);
    expect(componentStatusPrinter.print({ metadata: { name: 'y' } }, 0).cells).toEqual(['y', 'Unknown', '', '']);
  });
});
