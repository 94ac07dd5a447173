import { Injectable, type PipeTransform } from '@nestjs/common';
import { z } from 'zod';
import { invalid } from '@cs/contracts';

/** Validates a UUID path parameter with a 400 that names it. */
@Injectable()
export class UuidParam implements PipeTransform<string, string> {
  constructor(private readonly name: string) {}

  transform(value: string): string {
    if (!z.uuid().safeParse(value).success) throw invalid(`${this.name} must be a UUID`);
    return value.toLowerCase();
  }
}
